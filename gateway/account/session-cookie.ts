import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { SessionStore } from '../auth/session-store.ts';

/**
 * `__Host-`: the browser takes the cookie only with `Secure`, `Path=/` and no `Domain`, so no sibling subdomain
 * can plant or overwrite it. The gateway reads it only inside the dashboard's scope (api-routes.ts): the data API
 * never parses cookies at all.
 */
export const SESSION_COOKIE = '__Host-session';

export const COOKIE_ATTRIBUTES = { path: '/', httpOnly: true, secure: true, sameSite: 'strict' } as const;

/** The issuer of the dashboard's session tokens: an API session token is no dashboard session, nor the reverse. */
export const DASHBOARD_ISSUER = 'data-graph/account';

export interface DashboardAccount {
  email: string;
  /** The session the cookie names: logout ends it, and the CSRF token is bound to it (csrf.ts). */
  sessionId: string;
  /** The account as the grant table sees a session: live data, every key action (auth/grants.ts). */
  viewer: Viewer;
}

export interface DashboardSessions {
  /** Signs the account in: a fresh token in the cookie, for the token's lifetime (JWT_TTL_SECONDS). */
  start(reply: FastifyReply, accountId: string): Promise<void>;
  /** Signs out: the session ends on the server (a copy of the cookie opens nothing) and the browser drops it. */
  end(reply: FastifyReply, account: DashboardAccount | null): Promise<void>;
  /**
   * The signed-in account, or undefined without a live session (no cookie; expired, forged; ended by logout, a
   * password change or disabling the account; account gone).
   */
  read(request: FastifyRequest): Promise<DashboardAccount | undefined>;
}

export function createDashboardSessions(deps: { store: SessionStore; ttlSeconds: number }): DashboardSessions {
  return {
    async start(reply, accountId) {
      const { token } = await deps.store.start(accountId);
      reply.setCookie(SESSION_COOKIE, token, { ...COOKIE_ATTRIBUTES, maxAge: deps.ttlSeconds });
    },
    async end(reply, account) {
      if (account) await deps.store.end(account.sessionId);
      reply.clearCookie(SESSION_COOKIE, COOKIE_ATTRIBUTES);
    },
    async read(request) {
      const token = request.cookies[SESSION_COOKIE];
      const session = token ? await deps.store.read(token) : undefined;
      if (!session) return undefined;
      const { sessionId, accountId, email, plan } = session;
      return { email, sessionId, viewer: { accountId, plan, mode: 'live' } };
    },
  };
}
