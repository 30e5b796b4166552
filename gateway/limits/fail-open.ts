import { Counter } from 'prom-client';
import { logger } from '../../subgraphs/platform/logger.ts';
import { StoreUnavailableError } from './store.ts';

/** Checks skipped because the counter store (Redis) was away; an alert on it says limits are not enforced. */
export const limitFailOpenTotal = new Counter({
  name: 'rate_limit_fail_open_total',
  help: 'Limit checks let through without counting because the counter store (Redis) was unreachable, by limit.',
  labelNames: ['limit'] as const,
});

const WARNING_INTERVAL_MS = 10_000;
const lastWarning = new Map<string, number>();

/**
 * Runs a limit check that fails open: when the counter store is unreachable the request goes through
 * uncounted (`fallback`), with a warning (at most one per limit every 10 s) and the metric above. Used for
 * the plan's rate limit and the per-field limits, whose only purpose is fair use; security throttles (failed
 * logins) call the store directly and so fail closed with a 503.
 */
export async function failOpen<T>(limit: string, fallback: T, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    limitFailOpenTotal.inc({ limit });
    const now = Date.now();
    if (now - (lastWarning.get(limit) ?? 0) >= WARNING_INTERVAL_MS) {
      lastWarning.set(limit, now);
      logger.warn({ limit }, 'counter store unreachable: limit not enforced (fail open)');
    }
    return fallback;
  }
}
