import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError } from '../../subgraphs/platform/errors.ts';
import { COOKIE_ATTRIBUTES } from './session-cookie.ts';

/** The token's secret, per browser: `__Host-`, so a sibling subdomain cannot plant one it knows. */
export const CSRF_COOKIE = '__Host-csrf';
/** The only place a token is read from: a header, which a cross-site form or image cannot send. */
export const CSRF_HEADER = 'x-csrf-token';

const PLUGIN_REFUSALS = new Set(['FST_CSRF_MISSING_SECRET', 'FST_CSRF_INVALID_TOKEN']);

/**
 * @fastify/csrf-protection over @fastify/cookie (the synchroniser-token pattern, its secret in a cookie):
 * `reply.generateCsrf()` hands out tokens (GET /account/api/session), and the returned hook refuses a request
 * whose `x-csrf-token` does not match this browser's secret with `403 csrf_token_invalid`. Register inside the
 * dashboard's scope, after @fastify/cookie.
 */
export async function registerCsrf(scope: FastifyInstance): Promise<onRequestHookHandler> {
  await scope.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: COOKIE_ATTRIBUTES,
    getToken: (request: FastifyRequest) => {
      const token = request.headers[CSRF_HEADER];
      return typeof token === 'string' ? token : undefined;
    },
  });
  // The plugin answers with errors of its own; they leave in the project's error body (the parent handler's).
  scope.setErrorHandler((error: { code?: string }) => {
    if (error.code && PLUGIN_REFUSALS.has(error.code)) {
      throw new ApiError(
        'csrf_token_invalid',
        `This request needs the dashboard's CSRF token in the ${CSRF_HEADER} header (GET /account/api/session gives it).`,
      );
    }
    throw error;
  });
  return scope.csrfProtection;
}
