/** The plans, cheapest first: every plan fact below is keyed by them, and the order is the plan order. */
export const PLANS = ['analyst', 'professional', 'institutional'] as const;

export type Plan = (typeof PLANS)[number];

/** Whether `plan` includes what `required` includes (a higher plan reaches everything below it). */
export function planReaches(plan: Plan, required: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(required);
}

/** Scheme B (default): requests per minute, per account. */
export const REQUESTS_PER_MINUTE: Record<Plan, number> = { analyst: 60, professional: 300, institutional: 1_000 };

/** Scheme A: requests per rolling 24 hours, per credential; 0 means no API access, null no limit. */
export const REQUESTS_PER_DAY: Record<Plan, number | null> = { analyst: 0, professional: 1_000, institutional: null };

/** Live calls included per UTC day; each call beyond is overage. */
export const DAILY_ALLOWANCE: Record<Plan, number> = { analyst: 1_000, professional: 10_000, institutional: 100_000 };

/** Price of one live call beyond the day's allowance, in currency units (pay-as-you-go). */
export const OVERAGE_PRICE_PER_CALL = 0.01;

/** How far back each plan sees signals (documents: Analyst 7 days, Professional 90 days, Institutional full). */
export const SIGNAL_HISTORY_DAYS: Record<Plan, number | null> = {
  analyst: 7,
  professional: 90,
  institutional: null,
};

/** The oldest signal time a plan may see, or undefined for full history. */
export function signalHistoryStart(plan: Plan | undefined, now = new Date()): Date | undefined {
  const days = plan ? SIGNAL_HISTORY_DAYS[plan] : SIGNAL_HISTORY_DAYS.analyst;
  return days === null ? undefined : new Date(now.getTime() - days * 86_400_000);
}
