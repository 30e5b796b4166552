import { ApolloServer } from '@apollo/server';
import type { ApolloServerPlugin, PersistedQueryOptions } from '@apollo/server';
import { ApolloGateway } from '@apollo/gateway';
import type { DocumentNode, ExecutionResult } from 'graphql';
import type { SubgraphName } from '../../subgraphs/index.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { formatGraphQLError } from '../../subgraphs/platform/error-body.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';
import { refusalOf } from '../access/operation-guard.ts';
import type { OperationGuard } from '../access/operation-guard.ts';
import { refuseUnsafeText } from '../input/graphql-text-plugin.ts';
import { QUERY_LIMITS } from '../limits/policy.ts';
import { resolveOperation } from '../limits/operation-bounds.ts';
import { readSupergraph } from '../supergraph.ts';
import type { InFlightFetches } from './in-flight-fetches.ts';
import { AuthenticatedDataSource } from './remote-data-source.ts';
import { CachedLocalDataSource } from './local-data-source.ts';
import { installResultShaping } from './result-shaping.ts';
import { unavailableStatusPlugin } from './unavailable-status.ts';
import { IN_PROCESS_SUBGRAPHS, wholeSubgraphFor } from './whole-subgraph.ts';
import type { InProcessSubgraph, WholeOperation } from './whole-subgraph.ts';

export interface SubgraphConnection {
  /** Reach the subgraphs over HTTP instead of executing them in this process. */
  subgraphUrls?: Record<SubgraphName, string>;
  /** The shared secret remote subgraphs require. */
  gatewaySecret?: string;
  /** How long a remote subgraph may take to answer (SUBGRAPH_TIMEOUT_MS unless given). */
  subgraphTimeoutMs?: number;
  /** Whether identical subgraph queries in flight share one execution (DEDUPLICATE_IN_FLIGHT unless given). */
  deduplicateInFlight?: boolean;
}

/**
 * The subgraph services to reach over HTTP, or undefined when the subgraphs run in this process: the one place
 * that decides it, for the execution, readiness and the report download (gateway/server.ts). URLs without the
 * secret the services require are not a remote deployment.
 */
export function remoteSubgraphs({
  subgraphUrls,
  gatewaySecret,
}: SubgraphConnection): { urls: Record<SubgraphName, string>; secret: string } | undefined {
  return subgraphUrls && gatewaySecret ? { urls: subgraphUrls, secret: gatewaySecret } : undefined;
}

/** Runs an operation on the in-process subgraph that answers it whole (execution.ts). */
export type WholeRunner = (
  subgraph: InProcessSubgraph,
  operation: WholeOperation,
  context: RequestContext,
) => Promise<ExecutionResult>;

export interface ApolloOptions extends SubgraphConnection {
  inFlight: InFlightFetches;
  guard: OperationGuard;
  persistedQueries?: PersistedQueryOptions;
  /** With the subgraphs in this process, whether a query one of them answers whole skips the query planner. */
  runWhole?: WholeRunner;
  subgraphOf: (document: DocumentNode) => InProcessSubgraph | undefined;
}

/**
 * Apollo Server over an Apollo Gateway that composes the subgraphs from the checked-in supergraph: what answers the
 * operations gateway/execution leaves to the query planner, and the /graphql requests that are not plain JSON
 * (persisted queries, GET). Both of its documented extension points carry the seam's decisions: the operation
 * guard runs as a plugin, and the gateway's executor sends a query that one in-process subgraph answers whole to
 * that subgraph, as `execute` does.
 */
export async function createApolloServer(options: ApolloOptions) {
  const { subgraphTimeoutMs, inFlight } = options;
  const remote = remoteSubgraphs(options);
  // The one place the gateway is changed where it offers no extension point (result-shaping.ts, docs/design.md).
  installResultShaping();
  const gateway = new ApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name }) => {
      const subgraph = IN_PROCESS_SUBGRAPHS.find((candidate) => candidate.name === name)!;
      if (remote)
        return new AuthenticatedDataSource(
          remote.urls[subgraph.name],
          remote.secret,
          subgraph.name,
          inFlight,
          subgraphTimeoutMs,
        );
      // In one process both subgraphs execute with the request's one context object (see RequestContext.loaders).
      return new CachedLocalDataSource(subgraph.schema, subgraph.name, inFlight);
    },
  });
  const server = new ApolloServer<RequestContext>({
    gateway: options.runWhole ? answeringWholeQueries(gateway, options.subgraphOf, options.runWhole) : gateway,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError,
    introspection: true,
    // Replaced by access/csrf.ts, which refuses only requests that carry a cookie: Apollo's check also refuses a
    // GET with a bearer credential, which no other site can forge.
    csrfPrevention: false,
    persistedQueries: options.persistedQueries,
    // A document past the token limit is a syntax error (400) before it can nest deep enough to exhaust the stack.
    parseOptions: { maxTokens: QUERY_LIMITS.maxTokens },
    plugins: [refuseUnsafeText, unavailableStatusPlugin, operationGuardPlugin(options.guard)],
    // Apollo's own SIGTERM handler re-raises the signal and kills the process before our shutdown (subgraphs/platform/process/shutdown.ts) flushes usage.
    stopOnTerminationSignals: false,
  });
  await server.start();
  if (!gateway.schema) throw new Error('the gateway started without a schema');
  return { server, schema: gateway.schema };
}

type GatewayExecutor = NonNullable<Awaited<ReturnType<ApolloGateway['load']>>['executor']>;

/** What Apollo Server needs of a gateway: its schema, its executor, its end. */
type Gateway = Pick<ApolloGateway, 'load' | 'onSchemaLoadOrUpdate' | 'stop'>;

/**
 * The gateway with its executor (Apollo Server's documented `gateway` interface) sending a query one in-process
 * subgraph answers whole to that subgraph: planning it and shaping the subgraph's result again against the API
 * schema cost more CPU than the subgraph's execution (docs/performance.md, item 16).
 */
function answeringWholeQueries(
  gateway: ApolloGateway,
  subgraphOf: ApolloOptions['subgraphOf'],
  runWhole: WholeRunner,
): Gateway {
  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    stop: () => gateway.stop(),
    async load(options) {
      const loaded = await gateway.load(options);
      const planned = loaded.executor;
      if (!planned) return loaded;
      const executor: GatewayExecutor = async (request) => {
        const variables = request.request.variables ?? {};
        const subgraph = wholeSubgraphFor(subgraphOf, request.document, request.operation, variables);
        if (!subgraph) return planned(request);
        const operation = {
          document: request.document,
          text: request.source,
          operationName: request.operationName ?? undefined,
          variables,
        };
        return runWhole(subgraph, operation, request.context as RequestContext);
      };
      return { ...loaded, executor };
    },
  };
}

/** The operation guard at Apollo Server's documented point: after the operation is resolved, before it runs. */
function operationGuardPlugin(guard: OperationGuard): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, schema, request, contextValue }) {
          let resolved = operation;
          // A document that names no single operation is a 400 here (Apollo leaves it to the gateway, which fails
          // with a 500).
          if (!resolved) {
            try {
              resolved = resolveOperation(document, request.operationName);
            } catch (error) {
              throw error instanceof ApiError ? refusalOf(error) : error;
            }
          }
          const refusal = await guard({
            schema,
            document,
            operation: resolved,
            variables: request.variables ?? {},
            viewer: contextValue.viewer,
          });
          if (refusal) throw refusal;
        },
      };
    },
  };
}
