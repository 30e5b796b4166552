import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { SessionTokens } from '../auth/sessions.ts';

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
  /** The account as the grant table sees a session: live data, every key action (auth/grants.ts). */
  viewer: Viewer;
}

export interface DashboardSessions {
  /** Signs the account in: a fresh token in the cookie, for the token's lifetime (JWT_TTL_SECONDS). */
  start(reply: FastifyReply, accountId: string): Promise<void>;
  /** Signs out: the browser drops the cookie. */
  end(reply: FastifyReply): void;
  /** The signed-in account, or undefined without a valid session (no cookie, expired, forged, account gone). */
  read(request: FastifyRequest): Promise<DashboardAccount | undefined>;
}

export function createDashboardSessions(deps: {
  control: Database;
  tokens: SessionTokens;
  ttlSeconds: number;
}): DashboardSessions {
  return {
    async start(reply, accountId) {
      const { token } = await deps.tokens.issue(accountId);
      reply.setCookie(SESSION_COOKIE, token, { ...COOKIE_ATTRIBUTES, maxAge: deps.ttlSeconds });
    },
    end(reply) {
      reply.clearCookie(SESSION_COOKIE, COOKIE_ATTRIBUTES);
    },
    async read(request) {
      const token = request.cookies[SESSION_COOKIE];
      const accountId = token ? await deps.tokens.verify(token) : undefined;
      if (!accountId) return undefined;
      const account = await deps.control.prisma.account.findUnique({
        where: { id: accountId },
        select: { id: true, email: true, plan: true },
      });
      if (!account || !PLANS.includes(account.plan as Plan)) return undefined;
      return { email: account.email, viewer: { accountId: account.id, plan: account.plan as Plan, mode: 'live' } };
    },
  };
}
