import { HeaderMap } from '@apollo/server';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';
import { assertAnonymousReaches, assertPlanReaches } from '../auth/plan-access.ts';
import { handedOver } from '../hand-over.ts';
import type { createFieldLimiter } from '../limits/field-limits.ts';
import { assertWithinBounds, fragmentsOf, resolveOperation } from '../limits/operation-bounds.ts';
import { measuredOperation } from '../limits/measured-operations.ts';

/** An ApiError that also tells Apollo Server the HTTP status (and headers) of the response. */
function withHttp(error: ApiError, headers: Record<string, string> = {}): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: {
      ...error.extensions,
      http: { status: error.status, headers: new HeaderMap(Object.entries(headers)) },
    },
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
 * The bounds of QUERY_LIMITS (400), the plan table (403), per-field limits charged per occurrence (429) of one
 * operation; throws a GraphQLError that carries the HTTP status and headers. Run by the plugin below, and by REST
 * routes that execute their operation on a subgraph directly (rest/direct.ts).
 */
export async function checkOperation(
  checkFieldLimits: ReturnType<typeof createFieldLimiter>,
  { schema, document, operation, variables, viewer }: OperationToCheck,
): Promise<void> {
  const shape = measuredOperation(schema, operation, fragmentsOf(document), variables);
  try {
    assertWithinBounds(shape);
    // Without a viewer: the public REST routes' fixed operations, or a /graphql request without a credential.
    if (!viewer) return assertAnonymousReaches(shape.fields);
    assertPlanReaches(viewer.plan, [...shape.fields.keys()].map(splitCoordinate));
  } catch (error) {
    throw error instanceof ApiError ? withHttp(error) : error;
  }
  const refusal = await checkFieldLimits(viewer, shape.fields);
  if (refusal) {
    throw withHttp(new ApiError('rate_limited', refusal.message), { 'retry-after': String(refusal.retryAfter) });
  }
}

function splitCoordinate(coordinate: string): { typeName: string; fieldName: string } {
  const dot = coordinate.indexOf('.');
  return { typeName: coordinate.slice(0, dot), fieldName: coordinate.slice(dot + 1) };
}

/**
 * Checks every operation after it is parsed and validated and before the gateway plans it, for /graphql
 * and the REST shims alike. A document that names no single operation is a 400 here (Apollo leaves it to the
 * gateway, which fails with a 500). /graphql requests were already bounded before validation (graphql-http-bounds.ts).
 */
export function operationGuardPlugin(
  checkFieldLimits: ReturnType<typeof createFieldLimiter>,
): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, schema, request, contextValue }) {
          // The /graphql fast path checked this request already: its refusal stands, its pass is not charged again.
          const handed = handedOver(contextValue);
          if (handed?.kind === 'refused') throw handed.error;
          if (handed) return;
          let resolved = operation;
          if (!resolved) {
            try {
              resolved = resolveOperation(document, request.operationName);
            } catch (error) {
              throw error instanceof ApiError ? withHttp(error) : error;
            }
          }
          await checkOperation(checkFieldLimits, {
            schema,
            document,
            operation: resolved,
            variables: request.variables ?? {},
            viewer: contextValue.viewer,
          });
        },
      };
    },
  };
}
