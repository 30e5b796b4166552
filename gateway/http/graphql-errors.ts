import type { FastifyInstance } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { isErrorCode } from '../../subgraphs/platform/errors.ts';
import type { ErrorBody } from '../../subgraphs/platform/errors.ts';

const GRAPHQL_PATH = '/graphql';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';

function isErrorBody(payload: unknown): payload is ErrorBody {
  if (typeof payload !== 'object' || payload === null) return false;
  const body = payload as Record<string, unknown>;
  return isErrorCode(body.error) && typeof body.message === 'string' && !('errors' in body);
}

/** The body of a refusal as the one error of a GraphQL response: the same code, details and redirect. */
export function graphqlErrorOf(body: ErrorBody): GraphQLFormattedError {
  return {
    message: body.message,
    extensions: {
      code: body.error,
      ...(body.details ? { details: body.details } : {}),
      ...(body.redirect ? { redirect: body.redirect } : {}),
    },
  };
}

/**
 * Whether the client ranks `application/graphql-response+json` above `application/json` (GraphQL over HTTP:
 * the server answers in the client's preferred type). Apollo Server decides the same way for its own responses.
 */
export function prefersGraphQLResponse(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
      const q = parameters.find((parameter) => parameter.startsWith('q='));
      return { type, quality: q ? Number(q.slice(2)) : 1, index };
    })
    .filter(({ quality }) => quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const first = ranked.find(({ type }) => type === GRAPHQL_RESPONSE_TYPE || type === 'application/json');
  return first?.type === GRAPHQL_RESPONSE_TYPE;
}

/**
 * Every refusal on /graphql is a GraphQL response, `{errors: [{message, extensions: {code, …}}]}`, whoever
 * raised it before Apollo Server ran (the credential, rate and anonymous limits, credits, CSRF prevention, a body
 * that is not JSON, a 405, the request deadline), with the same HTTP status and headers as on REST (401, 403, 429…),
 * as the GraphQL-over-HTTP spec has a server answer a request it refuses before execution.
 */
export function registerGraphQLErrorShape(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode < 400 || request.url.split('?')[0] !== GRAPHQL_PATH || !isErrorBody(payload)) {
      return payload;
    }
    if (prefersGraphQLResponse(request.headers.accept)) reply.type(`${GRAPHQL_RESPONSE_TYPE}; charset=utf-8`);
    return { errors: [graphqlErrorOf(payload)] };
  });
}
