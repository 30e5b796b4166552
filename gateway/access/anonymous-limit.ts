import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Guard } from './guard.ts';
import { LOGIN_ROUTE } from '../auth/login-route.ts';
import { clientKey } from '../client-address.ts';
import { takeWindowCall } from '../limits/limits.ts';
import type { Limits } from '../limits/limits.ts';

/**
 * Calls without a credential, per client address and sliding window: every public route shares one budget,
 * login has its own lower one (each try costs a password hash). docs/security.md "Public routes".
 */
export const ANONYMOUS_LIMITS = {
  public: { max: 60, windowMs: 60_000 },
  login: { max: 30, windowMs: 60_000 },
} as const;

/** GET /graphql guards itself late (GraphiQL's page needs no key), so a credential there is left to it; POST is guarded here. */
const selfGuarded = (request: FastifyRequest) => request.routeOptions.url === '/graphql' && request.method !== 'POST';

/**
 * Limits every public route (but the operational ones: health checks, metrics) for callers without a credential, with the headers and
 * 429 of the plan limits. A public route called with a credential acts for its account instead: the guard
 * authenticates it and the plan's limit, history and fields apply.
 */
export function registerAnonymousLimits(app: FastifyInstance, deps: { limits: Limits; guard: Guard }) {
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const url = request.routeOptions.url;
    const { config } = request.routeOptions;
    if (!config.public || config.operational || config.dashboard || !url) return;
    const login = url === LOGIN_ROUTE.path;
    if (!login && request.headers.authorization !== undefined) {
      if (!selfGuarded(request)) await deps.guard(request, reply);
      return;
    }
    await takeAnonymousCall(deps.limits, request, reply, login ? 'login' : 'public');
  });
}

/**
 * Counts one call of the client address against a budget (429 past it). The account dashboard's routes take
 * theirs here too: sign-in and sign-up the login budget, signed-out calls the public one.
 */
export async function takeAnonymousCall(
  limits: Limits,
  request: FastifyRequest,
  reply: FastifyReply,
  budget: keyof typeof ANONYMOUS_LIMITS,
): Promise<void> {
  await takeWindowCall(limits, `rl:anonymous:${budget}:${clientKey(request.ip)}`, ANONYMOUS_LIMITS[budget], reply);
}
