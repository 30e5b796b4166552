import { getNamedType, isObjectType } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, GraphQLObjectType } from 'graphql';
import { selectedFieldNodes } from './selection.ts';

/**
 * The stored fields of a Prisma model a GraphQL selection reads, so a page can select those columns instead of
 * whole rows: a page of 25 companies with their 80 contacts parsed ~1,500 values where its selection read ~400,
 * and decoding them was a third of the subgraph's CPU (docs/performance.md, item 27).
 *
 * A field says what it reads in one of three ways: an exposed field (`t.exposeString('name')`) reads its column; a
 * relation (`t.relation('contacts')`) reads the related rows, whose own selection is walked in turn; any other
 * field declares its columns with `reads(...)` in its extensions. A selected field that says nothing (a resolver
 * that may read anything of its row) makes the answer `null`: the whole row, as before. Fields under
 * `@skip`/`@include` count as selected (selection.ts), whatever the variables.
 */
export interface SelectedFields {
  /** Fields of the model read by the selection, or null for every field. */
  fields: ReadonlySet<string> | null;
  /** Per relation name, what the selection reads of the related model. */
  relations: ReadonlyMap<string, SelectedFields>;
}

const READS = 'modelFieldsRead';

/** A custom field's extensions naming the stored fields its resolver reads from its row (`reads('firstName')`). */
export function reads(...fields: string[]): { [READS]: readonly string[] } {
  return { [READS]: fields };
}

/** Extensions a Prisma object's field carries (Pothos sets the first three; `reads` the last). */
interface FieldExtensions {
  pothosExposedField?: string;
  pothosPrismaRelationField?: { name: string };
  pothosPrismaSelect?: unknown;
  [READS]?: readonly string[];
}

const cache = new WeakMap<FieldNode, SelectedFields>();

/**
 * What `fieldNodes` (the nodes of one field whose type is, or lists, `type`) read of their model. Remembered per
 * field node: a document's nodes are the same objects on every execution of a cached operation.
 */
export function selectedFields(
  type: GraphQLObjectType,
  fieldNodes: readonly FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): SelectedFields {
  const first = fieldNodes[0];
  const known = first && cache.get(first);
  if (known) return known;
  const selected = walk(type, fieldNodes, fragments);
  if (first) cache.set(first, selected);
  return selected;
}

function walk(
  type: GraphQLObjectType,
  fieldNodes: readonly FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): SelectedFields {
  const byName = selectedFieldNodes(fieldNodes, fragments);
  let fields: Set<string> | null = new Set();
  const relations = new Map<string, SelectedFields>();
  const definitions = type.getFields();
  for (const [name, nodes] of byName) {
    if (name === '__typename') continue;
    const extensions = (definitions[name]?.extensions ?? {}) as FieldExtensions;
    const relation = extensions.pothosPrismaRelationField?.name;
    const target = definitions[name] && getNamedType(definitions[name].type);
    if (relation && target && isObjectType(target)) {
      // Two fields of one relation (aliases, other arguments) share one include: read what either reads.
      relations.set(relation, merge(relations.get(relation), walk(target, nodes, fragments)));
    } else if (typeof extensions.pothosExposedField === 'string') fields?.add(extensions.pothosExposedField);
    else if (extensions[READS]) for (const field of extensions[READS]) fields?.add(field);
    else if (!countsOnly(extensions.pothosPrismaSelect)) fields = null;
  }
  return { fields, relations };
}

/** A field whose Pothos `select` is `_count` only (`attorneysCount`): the counts travel in the include plan. */
function countsOnly(select: unknown): boolean {
  if (!select || typeof select !== 'object') return false;
  const keys = Object.keys((select as { select?: object }).select ?? select);
  return keys.length > 0 && keys.every((key) => key === '_count');
}

function merge(a: SelectedFields | undefined, b: SelectedFields): SelectedFields {
  if (!a) return b;
  const fields = a.fields && b.fields ? new Set([...a.fields, ...b.fields]) : null;
  const relations = new Map(a.relations);
  for (const [name, selected] of b.relations) relations.set(name, merge(relations.get(name), selected));
  return { fields, relations };
}
