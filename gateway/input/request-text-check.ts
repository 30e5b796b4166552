import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { collectUnsafeText } from './unsafe-text.ts';

const GRAPHQL_PATH = '/graphql';

/**
 * One check for every route (REST shims, account routes, the usage route): query and path parameters and the JSON
 * body are refused with a 400 when any string in them holds a NUL or an unpaired surrogate (unsafe-text.ts).
 * It runs after the body is parsed and after authentication, before any handler reads the request.
 */
export function registerRequestTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    // /graphql checks its variables and literals itself (graphql-text-plugin.ts), so refusals keep GraphQL's shape.
    if (request.routeOptions.url === GRAPHQL_PATH) return;
    const details: Record<string, string> = Object.create(null);
    // Parameters are named as sent, a body field by its path (`tags.1`).
    collectUnsafeText(request.query, 'query', details);
    collectUnsafeText(request.params, 'path', details);
    collectUnsafeText(request.body, 'body', details);
    if (Object.keys(details).length > 0) throw new BadRequestError(details);
  });
}
