import { GraphQLError } from 'graphql';
import type { DocumentNode, GraphQLFormattedError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { formatGraphQLError } from '../../subgraphs/platform/error-body.ts';
import type { InFlightFetches } from '../in-flight-fetches.ts';
import type { createFieldLimiter } from '../limits/field-limits.ts';
import { checkOperation } from '../access/operation-plugin.ts';
import { acceptsVariables, executeWhole, wholeSubgraphOf } from '../whole-subgraph.ts';
import type { InProcessSubgraph } from '../whole-subgraph.ts';

export interface DirectExecutionOptions {
  /** In-process subgraphs: an operation one of them answers whole (whole-subgraph.ts) runs there. */
  subgraphs: InProcessSubgraph[];
  /** The gateway's API schema, which the operation guard measures against (as the plugin does). */
  apiSchema: GraphQLSchema;
  checkFieldLimits: ReturnType<typeof createFieldLimiter>;
  inFlight: InFlightFetches;
}

export interface DirectResult {
  data?: Record<string, unknown> | null;
  /** Formatted as Apollo Server formats them (formatGraphQLError), the first one is the REST error. */
  errors?: readonly GraphQLFormattedError[];
  headers: [string, string][];
}

/** Runs a REST route's operation; undefined means "not here, use the gateway" (which answers identically). */
export type DirectRunner = (
  variables: Record<string, unknown>,
  context: RequestContext,
) => Promise<DirectResult | undefined>;

/**
 * A REST query that one in-process subgraph answers whole runs on that subgraph's schema directly, without
 * Apollo Server's request pipeline and the gateway's planning and result shaping, which cost more CPU per request
 * than the subgraph's own execution (docs/performance.md item 6). Everything else the gateway path does stays:
 * the operation guard (depth, cost, plan table, field limits) on the API schema, sharing of identical queries in
 * flight, and errors formatted by the same function. Variables the subgraph would refuse go to the gateway path,
 * so those errors are the gateway's own.
 */
export function directRunner(
  options: DirectExecutionOptions,
  method: string,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  text: string,
): DirectRunner | undefined {
  if (method !== 'GET' || operation.operation !== 'query') return undefined;
  const subgraph = wholeSubgraphOf(options.subgraphs, document);
  if (!subgraph) return undefined;
  const operationName = operation.name?.value;

  return async (variables, context) => {
    if (!acceptsVariables(subgraph, operation, variables)) return undefined;
    const headers: [string, string][] = [];
    try {
      await checkOperation(options.checkFieldLimits, {
        schema: options.apiSchema,
        document,
        operation,
        variables,
        viewer: context.viewer,
      });
    } catch (error) {
      return { errors: [formatted(error, headers)], headers };
    }
    const request = { document, text, operationName, variables };
    const { data, errors } = await executeWhole(subgraph, options.inFlight, request, context);
    return {
      data,
      ...(errors?.length ? { errors: errors.map((error) => formatted(error, headers)) } : {}),
      headers,
    };
  };
}

/** As Apollo Server formats an error (errorNormalize.ts): a code always, `extensions.http` moved to the response. */
function formatted(error: unknown, headers: [string, string][]): GraphQLFormattedError {
  const graphqlError =
    error instanceof GraphQLError
      ? error
      : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error as Error });
  const { http, ...extensions } = graphqlError.extensions as { http?: { headers?: Map<string, string> } } & Record<
    string,
    unknown
  >;
  for (const header of http?.headers ?? []) headers.push(header);
  return formatGraphQLError(
    { ...graphqlError.toJSON(), extensions: { ...extensions, code: extensions.code ?? 'INTERNAL_SERVER_ERROR' } },
    graphqlError,
  );
}
