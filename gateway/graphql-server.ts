import { ApolloServer } from '@apollo/server';
import type { ApolloServerPlugin, PersistedQueryOptions } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { SUBGRAPHS } from '../subgraphs/index.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import type { RequestContext } from '../subgraphs/platform/context.ts';
import { formatGraphQLError } from '../subgraphs/platform/error-body.ts';
import { refuseUnsafeText } from './input/graphql-text-plugin.ts';
import { InFlightFetches } from './in-flight-fetches.ts';
import { assertEveryFieldHasAPlan } from './auth/plan-access.ts';
import { QUERY_LIMITS } from './limits/policy.ts';
import type { SubgraphResponse } from './in-flight-fetches.ts';
import { CachedLocalDataSource } from './local-data-source.ts';
import { withDirectExecution } from './direct-execution.ts';
import { subgraphRequestHeaders, subgraphUnreachable } from './subgraph-requests.ts';
import { readSupergraph } from './supergraph.ts';
import { installResultShaping } from './result-shaping.ts';
import { unavailableStatusPlugin } from './unavailable-status.ts';
import { env } from '../subgraphs/platform/config.ts';
import { logger } from '../subgraphs/platform/logger.ts';

export interface GraphQLServerOptions {
  /** Reach the subgraphs over HTTP instead of executing them in this process. */
  subgraphUrls?: Record<SubgraphName, string>;
  /** The shared secret remote subgraphs require. */
  gatewaySecret?: string;
  /** How long a remote subgraph may take to answer (SUBGRAPH_TIMEOUT_MS unless given). */
  subgraphTimeoutMs?: number;
  /** Checks run on every operation (plans, limits), for /graphql and the REST shims. */
  plugins?: ApolloServerPlugin<RequestContext>[];
  /** Whether identical subgraph queries in flight share one execution (DEDUPLICATE_IN_FLIGHT unless given). */
  deduplicateInFlight?: boolean;
  /** Where automatic persisted queries are kept (Apollo Server's in-memory cache unless given; persisted-queries.ts). */
  persistedQueries?: PersistedQueryOptions;
  /**
   * With the subgraphs in this process, whether a query one of them answers whole skips the query planner
   * (direct-execution.ts). On unless told; tests turn it off to compare both paths.
   */
  directExecution?: boolean;
}

/**
 * The identity travels to remote subgraphs in a header they trust only next to the gateway's secret. Identical
 * queries in flight at the same time share one HTTP request (see in-flight-fetches.ts). A subgraph that does
 * not answer within `timeoutMs`, or cannot be reached, is a 503 `service_unavailable`.
 */
export class AuthenticatedDataSource extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    url: string,
    private readonly secret: string,
    private readonly name: string,
    private readonly inFlight: InFlightFetches,
    timeoutMs: number = env.SUBGRAPH_TIMEOUT_MS,
  ) {
    // Node's fetch (undici, keep-alive) rather than the default make-fetch-happen, whose cache and retry layers
    // showed in the bench's profiles of the gateway with subgraphs over HTTP.
    super({ url, fetcher: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }) });
  }

  override process(
    options: Parameters<RemoteGraphQLDataSource<RequestContext>['process']>[0],
  ): Promise<SubgraphResponse> {
    return this.inFlight.fetch(this.name, options, () =>
      super.process(options).catch((error: unknown) => {
        // Errors a subgraph answers come back in its response; a thrown one means no usable answer arrived.
        logger.warn({ err: error, subgraph: this.name }, 'subgraph unreachable');
        throw subgraphUnreachable(this.name);
      }),
    );
  }

  override willSendRequest({
    request,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<RequestContext>['willSendRequest']>>[0]) {
    for (const [name, value] of Object.entries(subgraphRequestHeaders(this.secret, context.viewer)))
      request.http?.headers.set(name, value);
  }
}

/** Apollo Server over an Apollo Gateway that composes the subgraphs from the checked-in supergraph. */
export async function createGraphQLServer(
  options: GraphQLServerOptions = {},
): Promise<{ server: ApolloServer<RequestContext>; schema: GraphQLSchema; inFlight: InFlightFetches }> {
  const { subgraphUrls, gatewaySecret, subgraphTimeoutMs } = options;
  installResultShaping();
  // One for every subgraph: a mutation sent to either ends the sharing of queries that started before it.
  const inFlight = new InFlightFetches({ enabled: options.deduplicateInFlight ?? env.DEDUPLICATE_IN_FLIGHT });
  const gateway = new ApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name }) => {
      const subgraph = name as SubgraphName;
      if (subgraphUrls && gatewaySecret)
        return new AuthenticatedDataSource(
          subgraphUrls[subgraph],
          gatewaySecret,
          subgraph,
          inFlight,
          subgraphTimeoutMs,
        );
      // In one process both subgraphs execute with the request's one context object (see RequestContext.loaders).
      return new CachedLocalDataSource(SUBGRAPHS[subgraph], subgraph, inFlight);
    },
  });
  const inProcess = !(subgraphUrls && gatewaySecret);
  const server = new ApolloServer<RequestContext>({
    gateway:
      inProcess && (options.directExecution ?? true)
        ? withDirectExecution(
            gateway,
            (Object.keys(SUBGRAPHS) as SubgraphName[]).map((name) => ({ name, schema: SUBGRAPHS[name] })),
            inFlight,
          )
        : gateway,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError,
    introspection: true,
    // Replaced by access/csrf.ts, which refuses only requests that carry a cookie: Apollo's check also refuses a
    // GET with a bearer credential, which no other site can forge.
    csrfPrevention: false,
    persistedQueries: options.persistedQueries,
    // A document past the token limit is a syntax error (400) before it can nest deep enough to exhaust the stack.
    parseOptions: { maxTokens: QUERY_LIMITS.maxTokens },
    plugins: [refuseUnsafeText, unavailableStatusPlugin, ...(options.plugins ?? [])],
    // Apollo's own SIGTERM handler re-raises the signal and kills the process before our shutdown (subgraphs/platform/process/shutdown.ts) flushes usage.
    stopOnTerminationSignals: false,
  });
  await server.start();
  if (!gateway.schema) throw new Error('the gateway started without a schema');
  assertEveryFieldHasAPlan(gateway.schema);
  return { server, schema: gateway.schema, inFlight };
}
