import type { FastifyRequest } from 'fastify';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { SESSION_COOKIE } from '../account/session-cookie.ts';

/** Content types a browser sends to another site without asking first (no CORS preflight). */
const NO_PREFLIGHT_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** Headers only a client that passed a preflight (or is no browser) can send; Apollo's clients send the first. */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'] as const;

/**
 * Whether the request carries the account dashboard's session cookie, the one cookie this service authenticates
 * with. Others (a load balancer's, the dashboard's CSRF secret) authenticate nothing, so a request with only them
 * cannot be a forgery that matters, and an anonymous visitor of /account is not refused on /graphql.
 */
function carriesSession(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((pair) => pair.trim().startsWith(`${SESSION_COOKIE}=`));
}

/**
 * Whether another site could have made a browser send this /graphql request with the user's cookies: a request
 * that carries the session cookie, no Authorization header (which a cross-site page cannot set without a preflight), no
 * preflight header, and no content type or one a form can send (a GET, or a POST of form or plain text).
 * Requests without a cookie have nothing a forgery could use: a bearer credential is never sent by the browser
 * on its own, so a GET with `Authorization: Bearer` and an anonymous GET both go through.
 */
function couldBeForged(request: FastifyRequest): boolean {
  const { headers } = request;
  if (!carriesSession(headers.cookie) || headers.authorization !== undefined) return false;
  if (PREFLIGHT_HEADERS.some((name) => (headers[name] ?? '').length > 0)) return false;
  const contentType = headers['content-type'];
  if (contentType === undefined) return true;
  return NO_PREFLIGHT_CONTENT_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase());
}

/**
 * CSRF prevention for /graphql (Apollo Server's own is off: it also refuses a GET with a bearer credential and
 * an anonymous GET, which cannot be forged). docs/security.md "Cookies and CSRF".
 */
export async function refuseForgeableRequest(request: FastifyRequest): Promise<void> {
  if (!couldBeForged(request)) return;
  throw new BadRequestError(
    {
      cookie:
        'sent without an Authorization header; send the credential as Authorization: Bearer, a JSON body (Content-Type: application/json), or the header apollo-require-preflight: true',
    },
    'This request carries a cookie but could have been sent by another site: send Authorization: Bearer, a JSON body, or the header apollo-require-preflight: true.',
  );
}
