import { isInterfaceType, isObjectType } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { PLAN_RULES } from '../../subgraphs/index.ts';
import { ForbiddenError, UnauthorizedError } from '../../subgraphs/platform/errors.ts';
import { planReaches as includesPlan } from '../../subgraphs/platform/plans.ts';
import type { Plan, PlanRule } from '../../subgraphs/platform/plans.ts';

/**
 * Which plan reaches what: the subgraphs' plan rules (subgraphs/index.ts PLAN_RULES; docs/api.md "Plans and
 * limits" prints them), checked on every field an operation selects. REST routes run GraphQL operations, so one
 * check covers REST and GraphQL alike. It fails closed: a field no rule names is refused, and the gateway does
 * not start while the API has one (`assertEveryFieldHasAPlan`).
 */
export { PLAN_RULES };

const RULE_BY_COORDINATE = new Map(
  PLAN_RULES.flatMap((rule) => rule.coordinates.map((coordinate) => [coordinate, rule])),
);

/** The rule that governs a field (`Type.field` first, then `Type.*`); undefined when none does. */
export function ruleFor(typeName: string, fieldName: string): PlanRule | undefined {
  return RULE_BY_COORDINATE.get(`${typeName}.${fieldName}`) ?? RULE_BY_COORDINATE.get(`${typeName}.*`);
}

/** GraphQL's own meta fields (`__typename`, `__schema`, `__type`) belong to no feature. */
const isMetaField = (typeName: string, fieldName: string) => fieldName.startsWith('__') || typeName.startsWith('__');

export function planReaches(plan: Plan, rule: PlanRule | undefined): boolean {
  return rule !== undefined && includesPlan(plan, rule.plan);
}

/** Refuses (403 plan_required, redirect /billing) when any field the operation selects is above the plan or has no rule. */
export function assertPlanReaches(plan: Plan, fields: Iterable<{ typeName: string; fieldName: string }>): void {
  for (const { typeName, fieldName } of fields) {
    if (isMetaField(typeName, fieldName)) continue;
    const rule = ruleFor(typeName, fieldName);
    if (!rule) throw new ForbiddenError('plan_required', `${typeName}.${fieldName} is not part of any plan.`);
    if (!planReaches(plan, rule)) {
      throw new ForbiddenError(
        'plan_required',
        `${rule.feature} require the ${rule.plan} plan or higher; your plan is ${plan}.`,
      );
    }
  }
}

/** A caller without a credential gets the lowest plan's fields (and, in the subgraphs, its signal history). */
export const ANONYMOUS_PLAN: Plan = 'analyst';

/**
 * What a caller without a credential may ask over GraphQL: what the public REST routes show (`GET /api/search`
 * is `ticker`, `GET /api/stats/public` is `publicStats`, `GET /api/stats/sources` is `sources`), once each as there, and the schema by introspection.
 */
export const PUBLIC_ROOT_FIELDS: ReadonlySet<string> = new Set(['Query.ticker', 'Query.publicStats', 'Query.sources']);
const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * Refuses (401) an operation without a credential that selects anything else: another root field, a public one
 * twice (aliases), or a field above the anonymous plan. `fields` counts each `Type.field` the operation selects.
 */
export function assertAnonymousReaches(fields: ReadonlyMap<string, number>): void {
  for (const [coordinate, occurrences] of fields) {
    const dot = coordinate.indexOf('.');
    const typeName = coordinate.slice(0, dot);
    const fieldName = coordinate.slice(dot + 1);
    if (isMetaField(typeName, fieldName)) continue;
    const open = ROOT_TYPES.has(typeName)
      ? PUBLIC_ROOT_FIELDS.has(coordinate) && occurrences === 1
      : planReaches(ANONYMOUS_PLAN, ruleFor(typeName, fieldName));
    if (!open) {
      throw new UnauthorizedError(
        `A valid API key or session token is required for ${coordinate}${occurrences > 1 ? ` asked ${occurrences} times` : ''}. ` +
          'Without one, ticker and publicStats answer (once each, with the analyst plan’s fields), and introspection.',
      );
    }
  }
}

/** Every field of the schema's object and interface types that no plan rule names. */
export function fieldsWithoutPlan(schema: GraphQLSchema): string[] {
  return Object.values(schema.getTypeMap())
    .filter((type) => (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith('__'))
    .flatMap((type) =>
      Object.keys((type as { getFields(): object }).getFields()).map((field) => [type.name, field] as const),
    )
    .filter(([typeName, fieldName]) => !isMetaField(typeName, fieldName) && !ruleFor(typeName, fieldName))
    .map(([typeName, fieldName]) => `${typeName}.${fieldName}`);
}

/** Stops a gateway whose API has a field without a plan: a forgotten rule must not leave data open or unreachable. */
export function assertEveryFieldHasAPlan(schema: GraphQLSchema): void {
  const missing = fieldsWithoutPlan(schema);
  if (missing.length)
    throw new Error(`No plan rule names ${missing.join(', ')} (add it to its subgraph's plan-rules.ts).`);
}
