import type { Plan } from '../../subgraphs/shared/context.ts';

/** The numbers behind docs/api.md "Plans and limits"; every limit reads them from here. */
export type RateLimitScheme = 'A' | 'B';

/** Scheme B (default): requests per minute, per account. */
export const REQUESTS_PER_MINUTE: Record<Plan, number> = { analyst: 60, professional: 300, institutional: 1_000 };

/** Scheme A: requests per rolling 24 hours, per credential; 0 means no API access, null no limit. */
export const REQUESTS_PER_DAY: Record<Plan, number | null> = { analyst: 0, professional: 1_000, institutional: null };

/** Live calls included per UTC day; each call beyond is overage. */
export const DAILY_ALLOWANCE: Record<Plan, number> = { analyst: 1_000, professional: 10_000, institutional: 100_000 };

/** Price of one live call beyond the day's allowance, in currency units (pay-as-you-go). */
export const OVERAGE_PRICE_PER_CALL = 0.01;

/** Expensive GraphQL fields: each has its own limit per account, on top of the plan's request limit. */
export const FIELD_LIMITS: Record<string, { max: number; window: string }> = {
  'Query.search': { max: 30, window: '1m' },
  'Query.ticker': { max: 30, window: '1m' },
  'Query.members': { max: 30, window: '1m' },
  'Mutation.generateReport': { max: 10, window: '1h' },
};

/** How deep and how costly one GraphQL operation may be (see gateway/limits/query-cost.ts). */
export const QUERY_LIMITS = { maxDepth: 10, maxCost: 20_000 };

export interface LimitOptions {
  scheme: RateLimitScheme;
  /** Counters shared by every gateway when set; in this process's memory otherwise. */
  redisUrl?: string;
  /** Calls a sandbox key has in all. */
  sandboxCredits: number;
}
