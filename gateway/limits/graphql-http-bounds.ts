import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { ApiError, BadRequestError } from '../../subgraphs/platform/errors.ts';
import { formatGraphQLError } from '../../subgraphs/platform/error-body.ts';
import { assertWithinBounds, fragmentsOf, resolveOperation } from './operation-bounds.ts';
import { measuredOperation, parsedDocument } from './measured-operations.ts';

/**
 * Bounds a /graphql request before Apollo Server validates it: graphql-js validation (OverlappingFieldsCanBeMerged)
 * takes seconds on a few thousand repetitions of one field, so the document is measured first, in linear time, and
 * refused with the same 400 the operation guard gives. A JSON array (batching) is refused here too. A document that
 * does not parse, or a body without a query, is left to Apollo Server, which answers it with its own 400.
 */
export function graphqlHttpBounds(schema: GraphQLSchema) {
  return async function boundGraphQLRequest(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const params = (request.method === 'GET' ? request.query : request.body) as unknown;
    try {
      if (Array.isArray(params)) {
        throw new BadRequestError(
          { body: 'must be one GraphQL request object; batches (a JSON array) are not accepted' },
          'Batched GraphQL requests are not accepted: send one operation per request.',
        );
      }
      const { query, operationName, variables } = (params ?? {}) as Record<string, unknown>;
      if (typeof query !== 'string') return undefined;
      let document: DocumentNode;
      try {
        document = parsedDocument(query);
      } catch {
        return undefined;
      }
      const operation = resolveOperation(document, typeof operationName === 'string' ? operationName : undefined);
      const values = variablesOf(variables);
      assertWithinBounds(measuredOperation(schema, operation, fragmentsOf(document), values));
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return reply.status(error.status).send({ errors: [formatGraphQLError(error.toJSON(), error)] });
    }
  };
}

/** The request's variables as Apollo Server will read them (a JSON string in a GET query string); {} when unusable. */
function variablesOf(variables: unknown): Record<string, unknown> {
  let value = variables;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
