import { Kind, getNamedType, getNullableType, isCompositeType, isInterfaceType, isListType, isObjectType } from 'graphql';
import type {
  FieldNode,
  FragmentDefinitionNode,
  GraphQLField,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';

/** Arguments that size a page: the lists below such a field hold at most that many items. */
const SIZE_ARGUMENTS = ['limit', 'perPage', 'first', 'last'];
/** Assumed items of a list whose size no argument states. */
const DEFAULT_LIST_SIZE = 10;
const DEFAULT_PAGE_SIZE = 25;

export interface OperationShape {
  depth: number;
  /** Estimated fields resolved: each field costs 1, and a list multiplies what is below it by its size. */
  cost: number;
  /** Every field selected, with its parent type (for the plan table and per-field limits). */
  fields: { typeName: string; fieldName: string }[];
}

/**
 * Measures an operation before it runs (introspection fields are not counted: GraphiQL's own query is
 * deep by nature and costs nothing). Fragments are expanded where they are spread.
 */
export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> = {},
): OperationShape {
  const fields: OperationShape['fields'] = [];
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  let depth = 0;

  const visit = (selectionSet: SelectionSetNode, typeName: string, level: number, pendingSize: number | undefined): number => {
    const parent = schema.getType(typeName);
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        cost += visit(selection.selectionSet, selection.typeCondition?.name.value ?? typeName, level, pendingSize);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments[selection.name.value];
        if (fragment) cost += visit(fragment.selectionSet, fragment.typeCondition.name.value, level, pendingSize);
      } else if (!selection.name.value.startsWith('__')) {
        depth = Math.max(depth, level);
        fields.push({ typeName, fieldName: selection.name.value });
        const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        cost += 1 + fieldCost(selection, field, level, pendingSize);
      }
    }
    return cost;
  };

  const fieldCost = (node: FieldNode, field: GraphQLField<unknown, unknown> | undefined, level: number, pendingSize: number | undefined) => {
    if (!node.selectionSet || !field) return 0;
    const type = getNamedType(field.type);
    if (!isCompositeType(type)) return 0;
    const size = pageSize(node, field, variables);
    const isList = isListType(getNullableType(field.type));
    // A page field (`signals(limit:)`) sizes the list below it (`nodes`, `edges`); a bare list uses its own size.
    const multiplier = isList ? (size ?? pendingSize ?? DEFAULT_LIST_SIZE) : 1;
    const passDown = isList ? undefined : (size ?? pendingSize);
    return multiplier * visit(node.selectionSet, type.name, level + 1, passDown);
  };

  const cost = root ? visit(operation.selectionSet, root.name, 1, undefined) : 0;
  return { depth, cost, fields };
}

function pageSize(node: FieldNode, field: GraphQLField<unknown, unknown>, variables: Record<string, unknown>): number | undefined {
  const sizeArguments = field.args.filter((argument) => SIZE_ARGUMENTS.includes(argument.name));
  if (sizeArguments.length === 0) return undefined;
  let values: Record<string, unknown> = {};
  try {
    values = getArgumentValues(field, node, variables);
  } catch {
    // Invalid arguments are refused by validation or the resolver; the estimate falls back to a default.
  }
  const given = sizeArguments.map((argument) => values[argument.name]).find((value) => typeof value === 'number');
  return typeof given === 'number' ? Math.max(1, given) : DEFAULT_PAGE_SIZE;
}

