import { createHmac, randomBytes } from 'node:crypto';
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
 * The key that binds a token to its session, derived from the first of JWT_SECRETS so that every gateway accepts
 * the tokens any of them hands out; without secrets, one per process, like the sessions themselves.
 */
export function csrfBindingKey(secrets: readonly string[] | undefined): Buffer {
  return secrets?.length
    ? createHmac('sha256', secrets[0]!).update('dashboard csrf binding').digest()
    : randomBytes(32);
}

/** What a token is bound to before sign-in (never empty: the plugin refuses an empty binding). */
const SIGNED_OUT = 'signed-out';

/** What a token is bound to: the signed-in session (read by api-routes.ts's first hook), or none before sign-in. */
export function csrfBinding(request: FastifyRequest): string {
  return request.dashboardAccount?.sessionId ?? SIGNED_OUT;
}

/**
 * @fastify/csrf-protection over @fastify/cookie (the synchroniser-token pattern, its secret in a cookie, each
 * token bound to the session it was handed to): `reply.generateCsrf({ userInfo: csrfBinding(request) })` hands
 * out tokens (GET /account/api/session), and the returned hook refuses a request whose `x-csrf-token` does not
 * match this browser's secret and this request's session with `403 csrf_token_invalid`. So a token taken before
 * sign-in, or from another session, is refused: the page fetches a new one after it signs in. Register inside
 * the dashboard's scope, after @fastify/cookie and the hook that reads the session.
 */
export async function registerCsrf(scope: FastifyInstance, hmacKey: Buffer): Promise<onRequestHookHandler> {
  await scope.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: COOKIE_ATTRIBUTES,
    csrfOpts: { hmacKey },
    getUserInfo: csrfBinding,
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
        `This request needs the dashboard's CSRF token in the ${CSRF_HEADER} header (GET /account/api/session gives it, a new one after sign-in).`,
      );
    }
    throw error;
  });
  return scope.csrfProtection;
}
