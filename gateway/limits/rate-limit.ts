import type { Viewer } from '../../subgraphs/platform/context.ts';
import { ApiError, ForbiddenError } from '../../subgraphs/platform/errors.ts';
import { REQUESTS_PER_DAY, REQUESTS_PER_MINUTE } from '../../subgraphs/platform/plans.ts';
import type { RateLimitScheme } from './policy.ts';
import type { CounterStore } from './store.ts';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the oldest counted call leaves the window, freeing a slot. */
  reset: number;
  /** Seconds to wait, when the call is refused. */
  retryAfter?: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The documented headers of a rate-limit state (`Retry-After` only on a refusal). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
    ...(state.retryAfter !== undefined ? { 'retry-after': String(state.retryAfter) } : {}),
  };
}

/** Counts one request of the viewer; undefined when the plan has no limit under the scheme. */
export async function takeRequest(
  store: CounterStore,
  scheme: RateLimitScheme,
  viewer: Viewer,
  now = Date.now(),
): Promise<RateLimitState | undefined> {
  const window = windowOf(scheme, viewer);
  return window && takeSlidingWindow(store, window.key, window.limit, window.windowMs, now);
}

/** The viewer's state as `takeRequest` would find it, without counting a request (a limit of 0 records nothing). */
export async function peekRequest(
  store: CounterStore,
  scheme: RateLimitScheme,
  viewer: Viewer,
  now = Date.now(),
): Promise<RateLimitState | undefined> {
  const window = windowOf(scheme, viewer);
  if (!window) return undefined;
  const { count, oldest } = await store.slide(window.key, now, window.windowMs, 0);
  return windowState(window.limit, count, oldest, window.windowMs);
}

/** The documented state of a window holding `count` calls, the oldest at `oldest`. */
function windowState(limit: number, count: number, oldest: number, windowMs: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), reset: Math.ceil((oldest + windowMs) / 1000) };
}

/**
 * A sliding window over the store's log of call times: exact (no burst of twice the limit across a window's
 * edge, as a fixed window per clock minute allows) and atomic across gateways sharing Redis.
 */
export async function takeSlidingWindow(
  store: CounterStore,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateLimitState> {
  const { count, oldest, added } = await store.slide(key, now, windowMs, limit);
  const state = windowState(limit, count, oldest, windowMs);
  // From the exact time a slot frees, not from the rounded-up reset: that could say 61 s for a 60 s window.
  if (!added) state.retryAfter = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
  return state;
}

/**
 * The window that limits the viewer: scheme B any 60 seconds per account (every key and session of it shares the
 * limit), scheme A a rolling 24 hours per credential (an API key, or the account for session tokens). Undefined
 * when the plan has no limit.
 */
function windowOf(
  scheme: RateLimitScheme,
  viewer: Viewer,
): { key: string; limit: number; windowMs: number } | undefined {
  if (scheme === 'B')
    return { key: `rl:B:${viewer.accountId}`, limit: REQUESTS_PER_MINUTE[viewer.plan], windowMs: MINUTE };
  const limit = REQUESTS_PER_DAY[viewer.plan];
  if (limit === null) return undefined;
  if (limit === 0) {
    throw new ForbiddenError(
      'plan_required',
      `The ${viewer.plan} plan does not include API access. Upgrade to call the API.`,
    );
  }
  return { key: `rl:A:${viewer.keyId ?? viewer.accountId}`, limit, windowMs: DAY };
}

/** The 429 of a refused request. */
export class RateLimitedError extends ApiError {
  constructor(readonly state: RateLimitState) {
    super('rate_limited', `Rate limit of ${state.limit} requests exceeded; retry in ${state.retryAfter} seconds.`);
  }
}
