import type { FastifyReply, FastifyRequest } from 'fastify';
import { env } from '../../subgraphs/platform/config.ts';
import { failOpen } from './fail-open.ts';
import { createFieldLimiter } from './field-limits.ts';
import type { LimitOptions } from './policy.ts';
import { RateLimitedError, rateLimitHeaders, takeRequest, takeSlidingWindow } from './rate-limit.ts';
import { createCounterStore } from './store.ts';
import type { CounterStore } from './store.ts';
import { usageHeaders } from './usage.ts';
import type { Usage } from './usage.ts';
import type { UsageMeter } from './usage-meter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** This call's usage, recorded when the request was admitted. */
    usage: Usage | null;
  }
}

export interface Limits {
  options: LimitOptions;
  store: CounterStore;
  checkFieldLimits: ReturnType<typeof createFieldLimiter>;
  /** Milliseconds since the epoch for the rate-limit windows; tests move it instead of sleeping. */
  clock: () => number;
  close(): Promise<void>;
}

/** The limits of one gateway: configured from the environment unless a test says otherwise. */
export function createLimits(overrides: Partial<LimitOptions> = {}, clock: () => number = Date.now): Limits {
  const options: LimitOptions = {
    scheme: env.RATE_LIMIT_SCHEME,
    redisUrl: env.REDIS_URL,
    sandboxCredits: env.SANDBOX_CREDITS,
    ...overrides,
  };
  const store = createCounterStore(options.redisUrl);
  const fieldLimiter = createFieldLimiter(store);
  const checkFieldLimits: Limits['checkFieldLimits'] = (viewer, fields) =>
    failOpen('field', undefined, () => fieldLimiter(viewer, fields));
  return { options, store, checkFieldLimits, clock, close: () => store.close() };
}

/**
 * Admits an authenticated request: the plan's rate limit first (a 429 spends no credit), then the call
 * count (a sandbox key past its credits is a 403). Both sets of headers go on the response, errors
 * included.
 */
export async function admit(limits: Limits, meter: UsageMeter, request: FastifyRequest, reply: FastifyReply) {
  const viewer = request.viewer!;
  // Fails open when Redis is away: the request goes through without rate-limit headers (fail-open.ts).
  const state = await failOpen('rate_limit', undefined, () =>
    takeRequest(limits.store, limits.options.scheme, viewer, limits.clock()),
  );
  if (state) reply.headers(rateLimitHeaders(state));
  if (state?.retryAfter !== undefined) throw new RateLimitedError(state);
  request.usage = await meter.record(viewer);
  reply.headers(usageHeaders(request.usage));
}

/**
 * Counts one call against a sliding window of `budget.max` calls per `budget.windowMs` under `key`, with the
 * rate-limit headers on the reply; past the budget a 429 (the public routes' and the dashboard's budgets).
 */
export async function takeWindowCall(
  limits: Limits,
  key: string,
  budget: { max: number; windowMs: number },
  reply: FastifyReply,
): Promise<void> {
  const state = await takeSlidingWindow(limits.store, key, budget.max, budget.windowMs, limits.clock());
  reply.headers(rateLimitHeaders(state));
  if (state.retryAfter !== undefined) throw new RateLimitedError(state);
}
