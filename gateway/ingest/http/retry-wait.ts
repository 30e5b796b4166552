import { retryAfterMs } from '../../../subgraphs/platform/webhooks/backoff.ts';

export { retryAfterMs };

/**
 * The wait before attempt `attempt + 1` after `attempt` failed with no `Retry-After`: exponential from `baseMs`,
 * capped at `capMs`, with "equal jitter" (half fixed, half random) so that clients failing together do not all
 * come back together.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
