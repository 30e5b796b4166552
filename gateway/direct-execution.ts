import { GraphQLError, OperationTypeNode } from 'graphql';
import type { ExecutionResult } from 'graphql';
import type { ApolloGateway } from '@apollo/gateway';
import type { RequestContext } from '../subgraphs/platform/context.ts';
import { handedOver } from './hand-over.ts';
import type { InFlightFetches } from './in-flight-fetches.ts';
import { acceptsVariables, executeWhole, rememberedWholeSubgraph } from './whole-subgraph.ts';
import type { InProcessSubgraph, WholeOperation } from './whole-subgraph.ts';

type GatewayExecutor = NonNullable<Awaited<ReturnType<ApolloGateway['load']>>['executor']>;

/** What Apollo Server needs of a gateway: its schema, its executor, its end. */
export type Gateway = Pick<ApolloGateway, 'load' | 'onSchemaLoadOrUpdate' | 'stop'>;

/**
 * The gateway Apollo Server runs /graphql on, with the subgraphs in this process: a query that one of them
 * answers whole (whole-subgraph.ts: every verticals list, record and search query, most markets queries) is
 * executed on that subgraph's schema directly, as the REST shim's routes are (rest/direct.ts). Planning it and
 * shaping the subgraph's result again against the API schema cost more CPU than the subgraph's execution
 * (docs/performance.md, item 16). Everything Apollo Server does before execution stays: parsing, validation
 * against the API schema, the operation guard and metering (plugins). Identical queries in flight share one
 * execution, as planned fetches do. Mutations, queries across subgraphs, introspection and variables the subgraph
 * would refuse take the gateway's path, so their answers and errors are the gateway's own.
 */
export function withDirectExecution(
  gateway: ApolloGateway,
  subgraphs: readonly InProcessSubgraph[],
  inFlight: InFlightFetches,
): Gateway {
  const subgraphFor = rememberedWholeSubgraph(subgraphs);

  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    stop: () => gateway.stop(),
    async load(options) {
      const loaded = await gateway.load(options);
      const planned = loaded.executor;
      if (!planned) return loaded;
      const executor: GatewayExecutor = async (request) => {
        const subgraph = request.operation.operation === OperationTypeNode.QUERY && subgraphFor(request.document);
        if (!subgraph) return planned(request);
        const variables = request.request.variables ?? {};
        if (!acceptsVariables(subgraph, request.operation, variables)) return planned(request);
        const context = request.context as RequestContext;
        // The /graphql fast path executed it already and left its errors for Apollo Server to report.
        const handed = handedOver(context);
        if (handed?.kind === 'answered') return handed.result;
        if (handed?.kind === 'failed') throw handed.error;
        const operation = {
          document: request.document,
          text: request.source,
          operationName: request.operationName ?? undefined,
          variables,
        };
        return executeDirectly(subgraph, operation, context, inFlight);
      };
      return { ...loaded, executor };
    },
  };
}

/** Runs the operation on the subgraph, with its errors as the gateway would pass them on. */
export async function executeDirectly(
  subgraph: InProcessSubgraph,
  operation: WholeOperation,
  context: RequestContext,
  inFlight: InFlightFetches,
): Promise<ExecutionResult> {
  const result = await executeWhole(subgraph, inFlight, operation, context);
  if (!result.errors?.length) return result;
  // As the gateway passes a subgraph's errors on: message, path and extensions, without the subgraph's locations.
  const errors = result.errors.map(
    (error) =>
      new GraphQLError(error.message, { path: error.path, extensions: error.extensions, originalError: error }),
  );
  return { ...result, errors };
}
