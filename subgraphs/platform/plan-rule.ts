import type { Plan } from './context.ts';

/**
 * One line of the plan table: the lowest plan that reaches a feature, and the GraphQL schema coordinates it covers
 * (`Type.field`, or `Type.*` for every field of a type wherever it is reached). Each subgraph declares the rules
 * of the fields it defines (its plan-rules.ts); the gateway checks every operation against all of them and refuses
 * to start while a field of the API has none (gateway/auth/plan-access.ts).
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
