import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Viewer } from '../../subgraphs/platform/context.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';
import { assertAnonymousReaches, assertPlanReaches } from '../auth/plan-access.ts';
import type { createFieldLimiter } from '../limits/field-limits.ts';
import { assertWithinBounds, fragmentsOf } from '../limits/operation-bounds.ts';
import { measuredOperation } from '../limits/measured-operations.ts';

/**
 * An ApiError as the GraphQLError a response reports, carrying the HTTP status (and headers) of the response in
 * `extensions.http`, where Apollo Server and gateway/execution/outcome.ts both read them.
 */
export function refusalOf(error: ApiError, headers: Record<string, string> = {}): GraphQLError {
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

/** Checks one operation against its caller's grant; what the caller gets back is a refusal, or nothing. */
export type OperationGuard = (operation: OperationToCheck) => Promise<GraphQLError | undefined>;

/**
 * The bounds of QUERY_LIMITS (400), the plan table (403), per-field limits charged per occurrence (429) of one
 * operation. The refusal is a value, the GraphQLError the response reports; gateway/execution runs this for every
 * operation of every channel, once.
 */
export function operationGuard(checkFieldLimits: ReturnType<typeof createFieldLimiter>): OperationGuard {
  return async ({ schema, document, operation, variables, viewer }) => {
    const shape = measuredOperation(schema, operation, fragmentsOf(document), variables);
    try {
      assertWithinBounds(shape);
      // Without a viewer: the public REST routes' fixed operations, or a /graphql request without a credential.
      if (!viewer) assertAnonymousReaches(shape.fields);
      else assertPlanReaches(viewer.plan, [...shape.fields.keys()].map(splitCoordinate));
    } catch (error) {
      if (error instanceof ApiError) return refusalOf(error);
      throw error;
    }
    if (!viewer) return undefined;
    const refusal = await checkFieldLimits(viewer, shape.fields);
    return refusal
      ? refusalOf(new ApiError('rate_limited', refusal.message), { 'retry-after': String(refusal.retryAfter) })
      : undefined;
  };
}

function splitCoordinate(coordinate: string): { typeName: string; fieldName: string } {
  const dot = coordinate.indexOf('.');
  return { typeName: coordinate.slice(0, dot), fieldName: coordinate.slice(dot + 1) };
}
