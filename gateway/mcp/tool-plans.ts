import { TypeInfo, parse, visit, visitWithTypeInfo } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { ruleFor } from '../auth/plan-access.ts';
import type { RestRoute } from '../rest/route.ts';
import type { RouteKey, ToolDefinition, ToolVariant } from './tool-catalog.ts';

/**
 * The lowest plan whose rules reach every field the route's operation selects. A route that leaves fields above
 * the caller's plan out (the ticker search) is open to the lowest plan.
 */
export function lowestPlan(route: RestRoute, schema: GraphQLSchema): Plan {
  if (route.omitFieldsAbovePlan) return PLANS[0];
  let highest = 0;
  const typeInfo = new TypeInfo(schema);
  visit(
    parse(route.operation),
    visitWithTypeInfo(typeInfo, {
      Field(field) {
        const parent = typeInfo.getParentType();
        const rule = parent && !field.name.value.startsWith('__') ? ruleFor(parent.name, field.name.value) : undefined;
        if (rule) highest = Math.max(highest, PLANS.indexOf(rule.plan));
      },
    }),
  );
  return PLANS[highest]!;
}

/** `type companies`, `action save`, or the route, for messages. */
export function labelOf(tool: ToolDefinition, variant: ToolVariant): string {
  const value = tool.selector && variant.when[tool.selector.name];
  return typeof value === 'string' ? `${tool.selector!.name} ${value}` : variant.route;
}

/** ` Requires the professional plan.` when every variant does; the variants that do, when some do. */
export function planNote(tool: ToolDefinition, planOf: (route: RouteKey) => Plan): string {
  const plans = tool.variants.map((variant) => ({ variant, plan: planOf(variant.route) }));
  const above = plans.filter(({ plan }) => plan !== PLANS[0]);
  if (above.length === 0) return '';
  if (above.length === plans.length && new Set(above.map(({ plan }) => plan)).size === 1) {
    return ` Requires the ${above[0]!.plan} plan or higher.`;
  }
  return ` ${above.map(({ variant, plan }) => `${labelOf(tool, variant)}: ${plan} plan or higher`).join('; ')}.`;
}
