import type { ApolloServer, PersistedQueryOptions } from '@apollo/server';
import { OperationTypeNode, validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { refusalOf } from '../access/operation-guard.ts';
import type { OperationGuard } from '../access/operation-guard.ts';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { assertEveryFieldHasAPlan } from '../auth/plan-access.ts';
import { hasUnsafeText } from '../input/graphql-text-plugin.ts';
import { parsedDocument } from '../limits/measured-operations.ts';
import { resolveOperation } from '../limits/operation-bounds.ts';
import { createApolloServer, remoteSubgraphs } from './apollo-server.ts';
import type { SubgraphConnection, WholeRunner } from './apollo-server.ts';
import { InFlightFetches } from './in-flight-fetches.ts';
import { answeredOutcome, apolloOutcome, failedOutcome } from './outcome.ts';
import type { ExecutionOutcome } from './outcome.ts';
import { SUBSCRIPTION_NEEDS_STREAM, createSubscribe } from './subscription.ts';
import type { SubscriptionOutcome } from './subscription.ts';
import { IN_PROCESS_SUBGRAPHS, executeWhole, rememberedWholeSubgraph, wholeSubgraphFor } from './whole-subgraph.ts';

/** One operation as any channel receives it. */
export interface OperationRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** The parsed `query`, when the channel keeps it (the REST tables do): compiled forms are kept per document. */
  document?: DocumentNode;
}

export interface ExecutionOptions extends SubgraphConnection {
  /** Checks every operation against its caller's grant (gateway/access/operation-guard.ts). */
  guard: OperationGuard;
  /** Where automatic persisted queries are kept (Apollo Server's in-memory cache unless given). */
  persistedQueries?: PersistedQueryOptions;
  /**
   * With the subgraphs in this process, whether a query one of them answers whole runs on it without the query
   * planner. On unless told; tests turn it off to compare both paths.
   */
  directExecution?: boolean;
}

/** The one way an operation runs, whichever channel it came from. */
export interface Execution {
  /** Runs `request` for the caller `context` describes; every refusal and failure is in the outcome. */
  execute(request: OperationRequest, context: RequestContext): Promise<ExecutionOutcome>;
  /**
   * Starts a subscription for `context`'s caller (subscription.ts): the same checks, then a stream of results, one
   * per event; or its refusal. `execute` refuses subscriptions: they need a channel that streams.
   */
  subscribe(request: OperationRequest, context: RequestContext): Promise<SubscriptionOutcome>;
  /** The client-facing (API) schema operations are validated and measured against. */
  readonly schema: GraphQLSchema;
  /** Apollo Server, for the /graphql requests only it reads (persisted queries, GET) and for shutting down. */
  readonly apollo: ApolloServer<RequestContext>;
  /** Executions shared in flight (tests watch them drain). */
  readonly inFlight: InFlightFetches;
}

/**
 * The execution seam: REST, /graphql and any new channel hand an operation and its caller to `execute`, which
 * decides in one place how it runs.
 *
 * A query that one in-process subgraph answers whole (whole-subgraph.ts: every verticals list, record and search
 * query, most markets queries) is parsed and validated against the API schema (both remembered), checked by the
 * operation guard (bounds, plan table, field limits), and run on that subgraph's schema, compiled once it recurs
 * and shared with an identical execution in flight; its result and errors come back as an outcome. Skipping Apollo
 * Server's request pipeline, the query planner and the gateway's result shaping for these is measured: together
 * they cost more CPU than the subgraph's execution (docs/performance.md, items 6, 16 and 30).
 *
 * Everything else (mutations, queries across subgraphs, introspection, documents that do not parse or validate,
 * unsafe text, variables the subgraph would refuse) goes to Apollo Server, whose plugin runs the same guard and
 * whose gateway executor sends whole queries to the same runner (apollo-server.ts), so each operation is checked
 * and charged once, and its errors are Apollo's own.
 */
export async function createExecution(options: ExecutionOptions): Promise<Execution> {
  const { guard } = options;
  // One for every subgraph: a mutation sent to either ends the sharing of queries that started before it.
  const inFlight = new InFlightFetches({ enabled: options.deduplicateInFlight ?? env.DEDUPLICATE_IN_FLIGHT });
  const runWhole: WholeRunner | undefined =
    !remoteSubgraphs(options) && (options.directExecution ?? true)
      ? (subgraph, operation, context) => executeWhole(subgraph, inFlight, operation, context)
      : undefined;
  const { server: apollo, schema } = await createApolloServer({
    ...options,
    inFlight,
    guard,
    runWhole,
    subgraphOf: rememberedWholeSubgraph(IN_PROCESS_SUBGRAPHS),
  });
  assertEveryFieldHasAPlan(schema);
  // Before Apollo Server has validated a document, its subgraph counts only when it is valid against the API schema.
  const validSubgraphOf = rememberedWholeSubgraph(
    IN_PROCESS_SUBGRAPHS,
    (document) => validate(schema, document).length === 0,
  );

  /**
   * The operation as the in-process runner takes it, `subscription` for one that needs a stream, or undefined:
   * Apollo Server answers it.
   */
  const wholeOperation = (request: OperationRequest) => {
    let document = request.document;
    try {
      document ??= parsedDocument(request.query);
      const operation = resolveOperation(document, request.operationName);
      if (operation.operation === OperationTypeNode.SUBSCRIPTION) return 'subscription' as const;
      if (!runWhole) return undefined;
      const variables = request.variables ?? {};
      const subgraph = wholeSubgraphFor(validSubgraphOf, document, operation, variables);
      if (!subgraph || hasUnsafeText(document, variables)) return undefined;
      return { subgraph, document, operation, variables };
    } catch {
      // A syntax error or no single operation: Apollo Server and its plugin report it.
      return undefined;
    }
  };

  async function execute(request: OperationRequest, context: RequestContext): Promise<ExecutionOutcome> {
    const whole = wholeOperation(request);
    if (whole === 'subscription') {
      return failedOutcome(refusalOf(new BadRequestError({ query: 'is a subscription' }, SUBSCRIPTION_NEEDS_STREAM)));
    }
    if (!runWhole || !whole) return apolloOutcome(apollo, request, context);
    const { subgraph, document, operation, variables } = whole;
    try {
      const refusal = await guard({ schema, document, operation, variables, viewer: context.viewer });
      if (refusal) return failedOutcome(refusal);
      const text = request.query;
      return answeredOutcome(
        await runWhole(subgraph, { document, text, operationName: operation.name?.value, variables }, context),
      );
    } catch (error) {
      return failedOutcome(error);
    }
  }

  const subscribe = createSubscribe(schema, IN_PROCESS_SUBGRAPHS, guard);
  return { execute, subscribe, schema, apollo, inFlight };
}
