import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isIntrospectionType,
  isListType,
  isObjectType,
} from 'graphql';
import type {
  FieldNode,
  FragmentDefinitionNode,
  GraphQLField,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { QUERY_LIMITS } from './policy.ts';

/** Arguments that size a page: the lists below such a field hold at most that many items. */
const SIZE_ARGUMENTS = ['limit', 'perPage', 'first', 'last'];
/** Assumed items of a list whose size no argument states. */
const DEFAULT_LIST_SIZE = 10;
const DEFAULT_PAGE_SIZE = 25;

export interface OperationShape {
  /** Data fields nested inside one another (`__schema`/`__type` count one level here). */
  depth: number;
  /** The deepest nesting inside `__schema` or `__type`, those fields included. */
  introspectionDepth: number;
  /** Estimated fields resolved: each field costs 1, and a list multiplies what is below it by its size. */
  cost: number;
  /** Top-level fields selected, fragments expanded. */
  rootFields: number;
  /** Top-level fields of a mutation (0 for a query). */
  mutations: number;
  /** The field or response name selected most often in one selection set, and how often. */
  mostRepeated: { name: string; count: number };
  /** How often each schema field (`Type.field`) is selected, fragments expanded: plan table and per-field limits. */
  fields: Map<string, number>;
}

/** What one selection set adds up to; a fragment's is computed once and reused at every spread. */
interface Measure {
  cost: number;
  depth: number;
  introspectionDepth: number;
  /** Field selections at this level, spreads and inline fragments included. */
  count: number;
  /** Selections at this level by field name (`field:x`) and by response name (`key:x`). */
  level: Map<string, number>;
  fields: Map<string, number>;
}

const emptyMeasure = (): Measure => ({
  cost: 0,
  depth: 0,
  introspectionDepth: 0,
  count: 0,
  level: new Map(),
  fields: new Map(),
});

function addCounts(into: Map<string, number>, from: Map<string, number>, times = 1) {
  for (const [name, count] of from) into.set(name, (into.get(name) ?? 0) + count * times);
}

/**
 * Measures an operation before it is validated or run, in time linear in the document: each fragment is measured
 * once (per page size handed into it) and its totals are added at every spread, so a document whose expansion
 * is exponential is measured quickly and refused for what it would cost. It tolerates what validation has not
 * yet refused (unknown fields, fragment cycles count nothing). Introspection counts like any field, its lists
 * sized by QUERY_LIMITS.introspectionListSize, its nesting apart from the data depth.
 */
export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> = {},
): OperationShape {
  const mostRepeated = { name: '', count: 0 };
  const fragmentMeasures = new Map<string, Measure | 'measuring'>();

  const measureFragment = (name: string, pendingSize: number | undefined): Measure => {
    const key = `${name}:${pendingSize ?? ''}`;
    const known = fragmentMeasures.get(key);
    // A cycle counts nothing here; validation refuses it (NoFragmentCycles) before anything runs.
    if (known === 'measuring') return emptyMeasure();
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment) return emptyMeasure();
    fragmentMeasures.set(key, 'measuring');
    const measure = measureSet(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), pendingSize);
    fragmentMeasures.set(key, measure);
    return measure;
  };

  const measureSet = (
    selectionSet: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    pendingSize: number | undefined,
  ): Measure => {
    const total = emptyMeasure();
    const add = (part: Measure) => {
      total.cost += part.cost;
      total.depth = Math.max(total.depth, part.depth);
      total.introspectionDepth = Math.max(total.introspectionDepth, part.introspectionDepth);
      total.count += part.count;
      addCounts(total.level, part.level);
      addCounts(total.fields, part.fields);
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        add(measureField(selection, parent, pendingSize));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        add(measureSet(selection.selectionSet, condition ?? undefined, pendingSize));
      } else {
        add(measureFragment(selection.name.value, pendingSize));
      }
    }
    for (const [name, count] of total.level) {
      if (count > mostRepeated.count) Object.assign(mostRepeated, { name: name.slice(name.indexOf(':') + 1), count });
    }
    return total;
  };

  const measureField = (
    node: FieldNode,
    parent: GraphQLNamedType | undefined,
    pendingSize: number | undefined,
  ): Measure => {
    const name = node.name.value;
    const measure = emptyMeasure();
    measure.count = 1;
    measure.level.set(`field:${name}`, 1);
    if (node.alias) measure.level.set(`key:${node.alias.value}`, 1);
    // __typename is answered without resolving anything.
    if (name === '__typename') return measure;
    const definition = fieldDefinition(parent, name);
    if (definition && parent && !name.startsWith('__') && !isIntrospectionType(parent))
      measure.fields.set(`${parent.name}.${name}`, 1);
    measure.cost = 1;
    measure.depth = 1;
    if (!node.selectionSet) return measure;
    const type = definition ? getNamedType(definition.type) : undefined;
    const size = definition ? pageSize(node, definition, variables) : undefined;
    const isList = definition ? isListType(getNullableType(definition.type)) : false;
    const listSize = parent && isIntrospectionType(parent) ? QUERY_LIMITS.introspectionListSize : DEFAULT_LIST_SIZE;
    // A page field (`signals(limit:)`) sizes the list below it (`nodes`, `edges`); a bare list uses its own size.
    const multiplier = isList ? (size ?? pendingSize ?? listSize) : 1;
    const below = measureSet(node.selectionSet, type, isList ? undefined : (size ?? pendingSize));
    measure.cost += multiplier * below.cost;
    addCounts(measure.fields, below.fields);
    if (name === '__schema' || name === '__type') {
      measure.introspectionDepth = Math.max(below.introspectionDepth, 1 + below.depth);
    } else {
      measure.depth = 1 + below.depth;
      measure.introspectionDepth = below.introspectionDepth;
    }
    return measure;
  };

  const root = schema.getRootType(operation.operation) ?? undefined;
  const measure = measureSet(operation.selectionSet, root, undefined);
  return {
    depth: measure.depth,
    introspectionDepth: measure.introspectionDepth,
    cost: measure.cost,
    rootFields: measure.count,
    mutations: operation.operation === 'mutation' ? measure.count : 0,
    mostRepeated,
    fields: measure.fields,
  };
}

function fieldDefinition(
  parent: GraphQLNamedType | undefined,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === '__schema') return SchemaMetaFieldDef;
  if (name === '__type') return TypeMetaFieldDef;
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

function pageSize(
  node: FieldNode,
  field: GraphQLField<unknown, unknown>,
  variables: Record<string, unknown>,
): number | undefined {
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
