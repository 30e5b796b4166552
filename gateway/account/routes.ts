import type { FastifyInstance } from 'fastify';
import type { Database } from '../../subgraphs/platform/database.ts';
import { env } from '../../subgraphs/platform/config.ts';
import type { PasswordChecks } from '../auth/password-checks.ts';
import { createSessionStore } from '../auth/session-store.ts';
import { createSessionTokens } from '../auth/sessions.ts';
import type { Limits } from '../limits/limits.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { dashboardApi } from './api-routes.ts';
import { csrfBindingKey } from './csrf.ts';
import { billingPage } from './billing-page.ts';
import { ASSETS_PATH, DASHBOARD_HTML, PAGE_SECURITY_HEADERS, asset } from './page.ts';
import { DASHBOARD_ISSUER, createDashboardSessions } from './session-cookie.ts';

export interface AccountDashboardOptions {
  control: Database;
  limits: Limits;
  meter: UsageMeter;
  /** POST /api/auth/login's throttle and hashing bound, shared (auth/account-routes.ts returns them). */
  passwords: PasswordChecks;
  /** SIGNUP unless given. */
  signup?: 'open' | 'closed';
}

/** /billing has no script at all. */
const BILLING_SECURITY_HEADERS = {
  ...PAGE_SECURITY_HEADERS,
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * The account dashboard (GET /account, its files, and its API under /account/api) and the plans page
 * (GET /billing). docs/account.md describes both. The pages and files are public, counted like GraphiQL's.
 */
export async function registerAccountDashboard(app: FastifyInstance, options: AccountDashboardOptions) {
  const billing = billingPage(options.limits.options.scheme, options.limits.options.sandboxCredits);

  app.get('/account', { config: { public: true } }, async (_request, reply) =>
    reply.headers(PAGE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(DASHBOARD_HTML),
  );
  app.get('/billing', { config: { public: true } }, async (_request, reply) =>
    reply.headers(BILLING_SECURITY_HEADERS).type('text/html; charset=utf-8').send(billing),
  );
  app.get<{ Params: { name: string } }>(
    `${ASSETS_PATH}/:name`,
    { config: { public: true } },
    async (request, reply) => {
      const file = asset(request.params.name);
      if (!file) return reply.callNotFound();
      return reply.type(file.type).header('cache-control', 'public, max-age=31536000, immutable').send(file.body);
    },
  );

  const ttlSeconds = env.JWT_TTL_SECONDS;
  const tokens = createSessionTokens({ secrets: env.JWT_SECRETS, ttlSeconds, issuer: DASHBOARD_ISSUER });
  const sessions = createDashboardSessions({
    store: createSessionStore(options.control, tokens, 'dashboard'),
    ttlSeconds,
  });
  await app.register(dashboardApi, {
    control: options.control,
    limits: options.limits,
    meter: options.meter,
    passwords: options.passwords,
    sessions,
    signup: options.signup ?? env.SIGNUP,
    csrfKey: csrfBindingKey(env.JWT_SECRETS),
  });
}
