import { HeaderMap } from '@apollo/server';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { RequestContext, Viewer } from '../../subgraphs/shared/context.ts';
import { ApiError, BadRequestError } from '../../subgraphs/shared/errors.ts';
import { assertPlanReaches } from '../auth/plan-access.ts';
import type { createFieldLimiter } from './field-limits.ts';
import { QUERY_LIMITS } from './policy.ts';
import { measureOperation } from './query-cost.ts';

/** An ApiError that also tells Apollo Server the HTTP status (and headers) of the response. */
function withHttp(error: ApiError, headers: Record<string, string> = {}): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { ...error.extensions, http: { status: error.status, headers: new HeaderMap(Object.entries(headers)) } },
  });
}

export interface OperationToCheck {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  viewer: Viewer | null;
}

/**
 * Depth and cost (400), the plan table (403), per-field limits (429) of one operation; throws a GraphQLError
 * that carries the HTTP status and headers. Run by the plugin below, and by REST routes that execute their
 * operation on a subgraph directly (rest/direct.ts).
 */
export async function checkOperation(
  checkFieldLimits: ReturnType<typeof createFieldLimiter>,
  { schema, document, operation, variables, viewer }: OperationToCheck,
): Promise<void> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const shape = measureOperation(schema, operation, fragments, variables);
  if (shape.depth > QUERY_LIMITS.maxDepth) {
    throw withHttp(new BadRequestError(
      { query: `is nested ${shape.depth} levels deep; the maximum is ${QUERY_LIMITS.maxDepth}` },
      `The query is too deep (${shape.depth} levels; at most ${QUERY_LIMITS.maxDepth}).`,
    ));
  }
  if (shape.cost > QUERY_LIMITS.maxCost) {
    throw withHttp(new BadRequestError(
      { query: `has an estimated cost of ${shape.cost}; the maximum is ${QUERY_LIMITS.maxCost}` },
      `The query is too costly (estimated ${shape.cost}; at most ${QUERY_LIMITS.maxCost}). Ask for smaller pages or fewer fields.`,
    ));
  }
  // Only the fixed operations of public REST routes run without a viewer.
  if (!viewer) return;
  try {
    assertPlanReaches(viewer.plan, shape.fields);
  } catch (error) {
    throw error instanceof ApiError ? withHttp(error) : error;
  }
  const refusal = await checkFieldLimits(viewer, shape.fields);
  if (refusal) {
    throw withHttp(new ApiError('rate_limited', refusal.message), { 'retry-after': String(refusal.retryAfter) });
  }
}

/**
 * Checks every operation after it is parsed and validated and before the gateway plans it, for /graphql
 * and the REST shims alike: depth and cost (400), the plan table (403), per-field limits (429).
 */
export function operationGuardPlugin(checkFieldLimits: ReturnType<typeof createFieldLimiter>): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, schema, request, contextValue }) {
          if (!operation) return;
          await checkOperation(checkFieldLimits, { schema, document, operation, variables: request.variables ?? {}, viewer: contextValue.viewer });
        },
      };
    },
  };
}
