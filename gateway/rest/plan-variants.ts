import { TypeInfo, print, visit, visitWithTypeInfo } from 'graphql';
import type { DocumentNode, FieldNode, GraphQLSchema } from 'graphql';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { planReaches, ruleFor } from '../auth/plan-access.ts';

export { ANONYMOUS_PLAN } from '../auth/plan-access.ts';

/** A route's operation as one plan may run it, and where the response holds `null` for what was left out. */
export interface PlanVariant {
  operation: string;
  omitted: string[][];
}

const keyOf = (field: FieldNode) => field.alias?.value ?? field.name.value;

/**
 * The operation without the fields the plan table reserves for a higher plan (a field left with nothing to
 * select goes too), so the plan check passes and nothing reserved is read. For the fixed operations of the
 * route tables: inline selections, no fragments, no variable used only by a removed field.
 */
function variantFor(schema: GraphQLSchema, document: DocumentNode, plan: Plan): PlanVariant {
  const omitted: string[][] = [];
  const path: string[] = [];
  const typeInfo = new TypeInfo(schema);
  let pruned = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(field) {
          const parent = typeInfo.getParentType();
          if (parent && !planReaches(plan, ruleFor(parent.name, field.name.value))) {
            omitted.push([...path, keyOf(field)]);
            return null;
          }
          path.push(keyOf(field));
          return undefined;
        },
        leave() {
          path.pop();
        },
      },
    }),
  );
  // Objects whose every field was reserved: drop the field itself, until none is left empty.
  for (let emptied = true; emptied;) {
    emptied = false;
    pruned = visit(pruned, {
      Field: {
        enter(field) {
          path.push(keyOf(field));
        },
        leave(field) {
          const key = path.slice();
          path.pop();
          if (!field.selectionSet || field.selectionSet.selections.length > 0) return undefined;
          emptied = true;
          omitted.push(key);
          return null;
        },
      },
    });
  }
  return { operation: print(pruned), omitted };
}

/** The variant of each plan; `undefined` when no plan loses a field (the route needs none). */
export function planVariants(schema: GraphQLSchema, document: DocumentNode): Map<Plan, PlanVariant> | undefined {
  const variants = new Map(PLANS.map((plan) => [plan, variantFor(schema, document, plan)]));
  return [...variants.values()].some((variant) => variant.omitted.length > 0) ? variants : undefined;
}

/** Puts `null` where a variant left a field out, so every caller gets the documented body shape. */
export function fillOmitted(data: Record<string, unknown>, omitted: string[][]): void {
  for (const path of omitted) setNull(data, path);
}

function setNull(value: unknown, path: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) setNull(item, path);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const [key, ...rest] = path;
  const record = value as Record<string, unknown>;
  if (rest.length === 0) record[key!] = null;
  else setNull(record[key!], rest);
}
