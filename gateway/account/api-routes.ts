import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../subgraphs/platform/database.ts';
import { ApiError, ConflictError, UnauthorizedError } from '../../subgraphs/platform/errors.ts';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import { takeAnonymousCall } from '../access/anonymous-limit.ts';
import { assertGranted } from '../auth/grants.ts';
import { CreateKeyBody, createKey, creationAction, listKeys, revokeKey } from '../auth/key-actions.ts';
import { LoginBody, SignUpBody } from '../auth/password-checks.ts';
import type { PasswordChecks } from '../auth/password-checks.ts';
import { parseRequestInput } from '../auth/request-input.ts';
import { DAILY_USAGE_DAYS, dailyUsage } from '../limits/daily-usage.ts';
import { takeWindowCall } from '../limits/limits.ts';
import type { Limits } from '../limits/limits.ts';
import { usageBody } from '../limits/usage.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { csrfBinding, registerCsrf } from './csrf.ts';
import { planFacts } from './plan-facts.ts';
import type { DashboardAccount, DashboardSessions } from './session-cookie.ts';
import { dashboardWebhooks } from './webhooks.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard's signed-in account (read by its first hook); null without a live session, and elsewhere. */
    dashboardAccount: DashboardAccount | null;
  }
}

export interface DashboardApiDependencies {
  control: Database;
  limits: Limits;
  meter: UsageMeter;
  passwords: PasswordChecks;
  sessions: DashboardSessions;
  signup: 'open' | 'closed';
  /** Binds CSRF tokens to their session (csrf.ts `csrfBindingKey`). */
  csrfKey: Buffer;
}

/** A signed-in account's dashboard calls, per sliding minute: its own budget, never the API's plan limit. */
export const DASHBOARD_LIMIT = { max: 120, windowMs: 60_000 } as const;

/** Every dashboard route: no bearer guard, no anonymous limit of the root (server.ts `dashboard`); limits below. */
const config = { public: true, dashboard: true };

/**
 * The account dashboard's own API, /account/api/* (docs/account.md). An encapsulated scope: only here are
 * cookies parsed, so the session cookie authenticates these routes and nothing else, and the data API keeps
 * its bearer credentials. Every call that changes something carries the CSRF token. Dashboard calls are not
 * API calls: they are neither metered nor counted against the plan's rate limit.
 */
export async function dashboardApi(scope: FastifyInstance, deps: DashboardApiDependencies) {
  const { control, limits, meter, passwords, sessions } = deps;
  await scope.register(fastifyCookie);
  scope.decorateRequest('dashboardAccount', null);
  // Before the CSRF check, which needs the session its token is bound to.
  scope.addHook('onRequest', async (request) => {
    request.dashboardAccount = (await sessions.read(request)) ?? null;
  });
  const csrf = await registerCsrf(scope, deps.csrfKey);
  scope.addHook('onSend', async (_request, reply) => {
    // Keys, usage and tokens: never kept by a cache on the way.
    reply.header('cache-control', 'no-store');
  });

  const takeDashboardCall = (account: DashboardAccount, reply: FastifyReply) =>
    takeWindowCall(limits, `rl:dashboard:${account.viewer.accountId}`, DASHBOARD_LIMIT, reply);
  // Runs before the CSRF check: an ended session is a 401, which the page answers by showing the sign-in form.
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    const account = request.dashboardAccount;
    if (!account) throw new UnauthorizedError('Sign in to the account dashboard (no session, or it has ended).');
    await takeDashboardCall(account, reply);
  };
  const passwordBudget = (request: FastifyRequest, reply: FastifyReply) =>
    takeAnonymousCall(limits, request, reply, 'login');
  const signupOpen = async () => {
    if (deps.signup !== 'open') {
      throw new ApiError(
        'signup_closed',
        'Sign-up is closed on this service: ask its operator for an account (npm run admin -- create-account).',
      );
    }
  };
  const viewerOf = (request: FastifyRequest) => request.dashboardAccount!.viewer;

  scope.get('/account/api/session', { config }, async (request, reply) => {
    parseRequestInput(request, {});
    const account = request.dashboardAccount;
    // Signed out, this is an anonymous call of the address; signed in, one of the account's dashboard calls.
    if (account) await takeDashboardCall(account, reply);
    else await takeAnonymousCall(limits, request, reply, 'public');
    const session = { csrf_token: reply.generateCsrf({ userInfo: csrfBinding(request) }), signup: deps.signup };
    if (!account) return { ...session, account: null };
    const { viewer, email } = account;
    return {
      ...session,
      account: { id: viewer.accountId, email, plan: viewer.plan },
      plan: planFacts(viewer.plan, limits.options.scheme),
      sandbox_credits_per_key: limits.options.sandboxCredits,
    };
  });

  scope.post('/account/api/login', { config, onRequest: [csrf, passwordBudget] }, async (request, reply) => {
    const credentials = parseRequestInput(request, { body: LoginBody }).body;
    const account = await passwords.logIn(credentials, request, reply);
    await sessions.start(reply, account.id);
    return { account };
  });

  scope.post(
    '/account/api/signup',
    { config, onRequest: [signupOpen, csrf, passwordBudget] },
    async (request, reply) => {
      const { email, password } = parseRequestInput(request, { body: SignUpBody }).body;
      await passwords.reserveAttempt(email, request, reply);
      const taken = () => new ConflictError('An account with this e-mail address exists; sign in instead.');
      if (await control.prisma.account.findUnique({ where: { email }, select: { id: true } })) throw taken();
      const passwordHash = await passwords.hashNew(password, reply);
      // The lowest plan; an operator upgrades it (/billing says how). ON CONFLICT: two sign-ups racing for one address.
      const [account] = await control.sql.query<{ id: string; email: string; plan: string }>(
        `INSERT INTO accounts (id, email, plan, password_hash) VALUES ($1::uuid, $2, $3, $4)
       ON CONFLICT (email) DO NOTHING RETURNING id, email, plan`,
        [randomUUID(), email, PLANS[0], passwordHash],
      );
      if (!account) throw taken();
      await passwords.succeeded(email, request);
      await sessions.start(reply, account.id);
      return reply.status(201).send({ account });
    },
  );

  scope.post('/account/api/logout', { config, onRequest: csrf }, async (request, reply) => {
    parseRequestInput(request, {});
    await takeAnonymousCall(limits, request, reply, 'public');
    await sessions.end(reply, request.dashboardAccount);
    return reply.status(204).send();
  });

  scope.get('/account/api/keys', { config, onRequest: signedIn }, async (request) => {
    parseRequestInput(request, {});
    const viewer = viewerOf(request);
    assertGranted(viewer, 'list_keys');
    const credits = limits.options.sandboxCredits;
    const keys = await listKeys(control, meter, viewer.accountId);
    return {
      keys: keys.map((key) => ({
        ...key,
        credits_remaining: key.mode === 'sandbox' ? Math.max(0, credits - key.calls_used) : null,
      })),
    };
  });

  scope.post('/account/api/keys', { config, onRequest: [signedIn, csrf] }, async (request, reply) => {
    const viewer = viewerOf(request);
    assertGranted(viewer, creationAction(request.body));
    const input = parseRequestInput(request, { body: CreateKeyBody }).body;
    return reply.status(201).send(await createKey(control, viewer.accountId, input));
  });

  scope.delete('/account/api/keys/:id', { config, onRequest: [signedIn, csrf] }, async (request) => {
    parseRequestInput(request, {});
    const viewer = viewerOf(request);
    assertGranted(viewer, 'revoke_key');
    return revokeKey(control, request.server.credentialCache, viewer.accountId, (request.params as { id: string }).id);
  });

  scope.get('/account/api/usage', { config, onRequest: signedIn }, async (request) => {
    parseRequestInput(request, {});
    const viewer = viewerOf(request);
    assertGranted(viewer, 'read_usage');
    // Live calls are counted in memory first (limits/usage-meter.ts): write them, so today's bar is current.
    await meter.flush();
    const days = await dailyUsage(control, viewer.accountId, DAILY_USAGE_DAYS.default);
    return {
      today: usageBody(await meter.read(viewer), viewer),
      days: days.map((day) => ({ date: day.date, live: day.calls.live, sandbox: day.calls.sandbox })),
    };
  });

  scope.get('/account/api/webhooks', { config, onRequest: signedIn }, async (request) => {
    parseRequestInput(request, {});
    const viewer = viewerOf(request);
    return dashboardWebhooks(control, viewer.accountId, viewer.plan);
  });
}
