import {
  DAILY_ALLOWANCE,
  OVERAGE_PRICE_PER_CALL,
  PLANS,
  REQUESTS_PER_DAY,
  REQUESTS_PER_MINUTE,
  planReaches,
} from '../../subgraphs/platform/plans.ts';
import { SIGNAL_HISTORY_DAYS } from '../../subgraphs/index.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { PLAN_RULES } from '../auth/plan-access.ts';
import type { RateLimitScheme } from '../limits/policy.ts';

/**
 * What each plan gives, read from the plan table (subgraphs/platform/plans.ts) and the plan rules: the dashboard
 * and /billing print these, so a changed limit or a new feature shows there without anyone copying numbers.
 */
export interface PlanFacts {
  name: Plan;
  /** The request limit under the configured scheme: `requests` null is unlimited, 0 no API access. */
  rate_limit: { requests: number | null; per: 'minute' | '24 hours' };
  daily_allowance: number;
  overage_price_per_call: number;
  /** How far back signals reach; null is the full history. */
  signal_history_days: number | null;
  /** The features the plan reaches, in the plan table's order. */
  features: string[];
}

/**
 * Features a customer buys: plan rules that open a root field (a query or a mutation). The other rules name
 * types reached only through those (pages, payloads) and are no feature of their own.
 */
export const FEATURES: readonly { feature: string; plan: Plan }[] = [
  ...new Map(
    PLAN_RULES.filter((rule) => rule.coordinates.some((coordinate) => /^(Query|Mutation)\./.test(coordinate))).map(
      (rule) => [rule.feature, { feature: rule.feature, plan: rule.plan }],
    ),
  ).values(),
].sort((a, b) => PLANS.indexOf(a.plan) - PLANS.indexOf(b.plan));

export function planFacts(plan: Plan, scheme: RateLimitScheme): PlanFacts {
  return {
    name: plan,
    rate_limit:
      scheme === 'B'
        ? { requests: REQUESTS_PER_MINUTE[plan], per: 'minute' }
        : { requests: REQUESTS_PER_DAY[plan], per: '24 hours' },
    daily_allowance: DAILY_ALLOWANCE[plan],
    overage_price_per_call: OVERAGE_PRICE_PER_CALL,
    signal_history_days: SIGNAL_HISTORY_DAYS[plan],
    features: FEATURES.filter((entry) => planReaches(plan, entry.plan)).map((entry) => entry.feature),
  };
}
