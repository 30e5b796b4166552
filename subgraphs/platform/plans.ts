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

/**
 * One line of the plan table: the lowest plan that reaches a feature, and the GraphQL schema coordinates it covers
 * (`Type.field`, or `Type.*` for every field of a type wherever it is reached). Each subgraph declares the rules
 * of the fields it defines (subgraphs/<name>/plan-rules.ts); the gateway checks every operation against all of
 * them and refuses to start while a field of the API has none (gateway/auth/plan-access.ts).
 */
export interface PlanRule {
  feature: string;
  plan: Plan;
  coordinates: readonly string[];
}

/** `Query.ownersConnection` is a Relay connection of type `QueryOwnersConnection` with edges `QueryOwnersConnectionEdge`. */
export function connectionTypes(parent: string, field: string): string[] {
  const name = `${parent}${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  return [`${name}.*`, `${name}Edge.*`];
}
