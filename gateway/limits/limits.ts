import type { FastifyReply, FastifyRequest } from 'fastify';
import { env } from '../../subgraphs/platform/config.ts';
import { failOpen } from './fail-open.ts';
import { createFieldLimiter } from './field-limits.ts';
import type { LimitOptions } from './policy.ts';
import type { Viewer } from '../../subgraphs/platform/context.ts';
import { RateLimitedError, peekRequest, rateLimitHeaders, takeRequest, takeSlidingWindow } from './rate-limit.ts';
import type { RateLimitState } from './rate-limit.ts';
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

/** What admitting one call found: the rate-limit state (none when the plan has no limit) and the usage. */
export interface Admission {
  rateLimit: RateLimitState | undefined;
  usage: Usage;
}

/**
 * Admits one call of an authenticated caller: the plan's rate limit first (a 429 spends no credit), then the call
 * count (a sandbox key past its credits is a 403). `onRateLimit` sees the state before a refusal is thrown, so
 * its headers go on the refusal too. Every channel's calls come through here (REST and /graphql per request,
 * MCP per tool call).
 */
export async function admitCall(
  limits: Limits,
  meter: UsageMeter,
  viewer: Viewer,
  onRateLimit: (state: RateLimitState) => void = () => {},
): Promise<Admission> {
  // Fails open when Redis is away: the call goes through without a rate-limit state (fail-open.ts).
  const rateLimit = await failOpen('rate_limit', undefined, () =>
    takeRequest(limits.store, limits.options.scheme, viewer, limits.clock()),
  );
  if (rateLimit) onRateLimit(rateLimit);
  if (rateLimit?.retryAfter !== undefined) throw new RateLimitedError(rateLimit);
  return { rateLimit, usage: await meter.record(viewer) };
}

/** What a call would find, without counting it (an MCP dry run): the rate-limit state and the usage as they are. */
export async function peekCall(limits: Limits, meter: UsageMeter, viewer: Viewer): Promise<Admission> {
  const rateLimit = await failOpen('rate_limit', undefined, () =>
    peekRequest(limits.store, limits.options.scheme, viewer, limits.clock()),
  );
  return { rateLimit, usage: await meter.read(viewer) };
}

/** Admits an authenticated request (`admitCall`), with both sets of headers on the response, errors included. */
export async function admit(limits: Limits, meter: UsageMeter, request: FastifyRequest, reply: FastifyReply) {
  const { usage } = await admitCall(limits, meter, request.viewer!, (state) => reply.headers(rateLimitHeaders(state)));
  request.usage = usage;
  reply.headers(usageHeaders(usage));
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
