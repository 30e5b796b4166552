/**
 * When a failed delivery is tried again (docs/webhooks.md "Delivery that loses nothing"): the wait after the
 * n-th failed attempt grows (the last wait repeats), with ±20 % jitter so that endpoints failing together do not
 * retry together; no attempt is planned later than 24 hours after the first, and one at that moment is the last.
 */
export const RETRY_WAITS_MS = [5, 300, 1800, 7200, 18_000, 36_000].map((seconds) => seconds * 1000);

export const RETRY_WINDOW_MS = 24 * 3600 * 1000;

const JITTER = 0.2;

/** A 429 or 503 may say when to come back (`Retry-After`, seconds or an HTTP date). */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

/**
 * The time of the next attempt after `failedAttempts` failures (the first of them at `firstAttemptAt`), or
 * undefined when the 24 hours are spent. A `Retry-After` is honoured when it asks for more than the step's wait,
 * still within the 24 hours.
 */
export function nextAttemptAt(
  failedAttempts: number,
  firstAttemptAt: Date,
  now: Date,
  options: { retryAfterMs?: number; random?: () => number } = {},
): Date | undefined {
  const deadline = firstAttemptAt.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= deadline) return undefined;
  const wait = RETRY_WAITS_MS[Math.min(failedAttempts, RETRY_WAITS_MS.length) - 1]!;
  const jittered = wait * (1 - JITTER + 2 * JITTER * (options.random ?? Math.random)());
  const delay = Math.max(jittered, options.retryAfterMs ?? 0);
  return new Date(Math.min(now.getTime() + Math.round(delay), deadline));
}
