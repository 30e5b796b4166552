import type { Prisma } from '../../prisma/generated/client/client.ts';
import { getDatamodel } from '../../prisma/generated/pothos-types.ts';
import type { Database } from './database.ts';
import { orderSql, readShapedRows, rowShape } from './model-rows.ts';
import type { ModelRow, SqlPageReaders } from './model-rows.ts';
import type { SelectedFields } from './selected-fields.ts';
import { quote, tableOf, whereToSql } from './where-sql.ts';

/**
 * The relations a Pothos Prisma query includes (`contacts` on a company, `owner` on a property, a firm's first
 * attorneys and their count), read through `pg` as Prisma's `include` reads them: one statement per relation for
 * the whole page, in Prisma's types under the relation's name: whole rows, or the fields the GraphQL selection
 * reads of them (selected-fields.ts) and the keys that join them. A page of 25 companies with their
 * contacts cost ~2 ms more gateway CPU through Prisma than without them (docs/performance.md, item 25).
 * Anything this file does not know (a relation without an order, a `select`, a key of two fields) makes the plan
 * null, and the page stays on Prisma.
 */

type IncludeEntry = true | { where?: object; orderBy?: object; take?: number; include?: object };

/** How one relation is read: the key on the parent rows, and the column of the related table it matches. */
interface Relation {
  name: string;
  target: Prisma.ModelName;
  /** The parent's field holding the key (a foreign key, or the field a foreign key references). */
  parentKey: string;
  /** The related model's field matched against it. */
  targetKey: string;
  /** Many rows per parent (ordered, maybe cut), or at most one. */
  list: boolean;
}

interface IncludePlan {
  relation: Relation;
  where?: object;
  orderBy?: object;
  take?: number;
  /** The related rows' fields to read (their id and join key among them), or null for whole rows. */
  fields: ReadonlySet<string> | null;
  nested: IncludesPlan;
}

export interface IncludesPlan {
  includes: IncludePlan[];
  /** `_count: { select: { attorneys: true } }`: to-many relations counted per parent. */
  counts: Relation[];
}

const NO_INCLUDES: IncludesPlan = { includes: [], counts: [] };

/** The parent's fields a plan joins on: read with the parent rows, whatever the selection reads of them. */
export const joinKeys = (plan: IncludesPlan): string[] => [
  ...plan.includes.map((include) => include.relation.parentKey),
  ...plan.counts.map((relation) => relation.parentKey),
];

/** What of `target` to read for a relation: what `selected` reads, plus the id, join key and nested join keys. */
function relatedFields(selected: SelectedFields | undefined, targetKey: string, nested: IncludesPlan) {
  return selected?.fields ? new Set([...selected.fields, 'id', targetKey, ...joinKeys(nested)]) : null;
}

type DatamodelField = ReturnType<typeof getDatamodel>['datamodel']['models'][string]['fields'][number];
const models = getDatamodel().datamodel.models;

const fieldOf = (model: string, name: string): DatamodelField | undefined =>
  models[model]?.fields.find((field) => field.name === name);

/**
 * The field of `model` that `foreignKey` (on the other model) references: a unique field of the same name (a trade's
 * `bioguideId` → the member's `bioguideId`), else the model's id. The Pothos datamodel has no `references`;
 * test/platform/model-includes.test.ts compares every relation the schema includes with Prisma's own read.
 */
function referencedField(model: string, foreignKey: string): string | null {
  const same = fieldOf(model, foreignKey);
  if (same && (same.isUnique || same.isId)) return foreignKey;
  return models[model]?.fields.find((field) => field.isId)?.name ?? null;
}

/** The relation `name` of `model`, when its key is one field of a type bound here (keyArrayType). */
function relationOf(model: Prisma.ModelName, name: string): Relation | null {
  const relation = keyedRelation(model, name);
  return relation && keyArrayType(model, relation.parentKey) ? relation : null;
}

function keyedRelation(model: Prisma.ModelName, name: string): Relation | null {
  const field = fieldOf(model, name);
  if (!field || field.kind !== 'object') return null;
  const target = field.type as Prisma.ModelName;
  const own = field.relationFromFields ?? [];
  if (own.length === 1) {
    // This side holds the foreign key: at most one related row.
    const targetKey = referencedField(target, own[0]!);
    return targetKey ? { name, target, parentKey: own[0]!, targetKey, list: false } : null;
  }
  const back = models[target]?.fields.find(
    (other) => other.relationName === field.relationName && other.kind === 'object' && other.name !== name,
  );
  const foreign = back?.relationFromFields ?? [];
  if (foreign.length !== 1) return null;
  const parentKey = referencedField(model, foreign[0]!);
  return parentKey ? { name, target, parentKey, targetKey: foreign[0]!, list: field.isList } : null;
}

const ENTRY_KEYS = new Set(['where', 'orderBy', 'take', 'include']);

/**
 * The plan for a query's `include` and `_count`, or null when any part of it is not read here. `selected` is what
 * the GraphQL selection reads of the rows (selected-fields.ts); without it related rows are read whole.
 */
export function planIncludes(
  db: Database,
  model: Prisma.ModelName,
  query: object,
  selected?: SelectedFields,
): IncludesPlan | null {
  const { include, ...rest } = query as { include?: Record<string, unknown> };
  if (Object.keys(rest).length > 0) return null;
  if (!include) return NO_INCLUDES;
  const plan: IncludesPlan = { includes: [], counts: [] };
  for (const [name, value] of Object.entries(include)) {
    if (name === '_count') {
      const counted = countedRelations(model, value);
      if (!counted) return null;
      plan.counts.push(...counted);
      continue;
    }
    const relation = relationOf(model, name);
    if (!relation || !rowShape(db, relation.target)) return null;
    const entry = value as IncludeEntry;
    if (entry === true) {
      // Prisma gives a list in no stated order: only an ordered list can be read the same way.
      if (relation.list) return null;
      const fields = relatedFields(selected?.relations.get(name), relation.targetKey, NO_INCLUDES);
      plan.includes.push({ relation, fields, nested: NO_INCLUDES });
      continue;
    }
    if (typeof entry !== 'object' || Object.keys(entry).some((key) => !ENTRY_KEYS.has(key))) return null;
    if (relation.list ? !entry.orderBy : entry.where || entry.orderBy || entry.take !== undefined) return null;
    const related = selected?.relations.get(name);
    const nested = planIncludes(db, relation.target, entry.include ? { include: entry.include } : {}, related);
    if (!nested) return null;
    const fields = relatedFields(related, relation.targetKey, nested);
    plan.includes.push({ relation, where: entry.where, orderBy: entry.orderBy, take: entry.take, fields, nested });
  }
  return plan;
}

function countedRelations(model: Prisma.ModelName, value: unknown): Relation[] | null {
  const select = (value as { select?: Record<string, unknown> } | null)?.select;
  if (!select || Object.keys(value as object).length !== 1) return null;
  const relations: Relation[] = [];
  for (const [name, wanted] of Object.entries(select)) {
    const relation = relationOf(model, name);
    if (wanted !== true || !relation?.list) return null;
    relations.push(relation);
  }
  return relations;
}

/** The SQL array type a key of `model` is bound as, for `unnest`: null for a type not read here. */
const KEY_ARRAY_TYPES: Record<string, string> = { Int: 'int[]', String: 'text[]' };
const keyArrayType = (model: Prisma.ModelName, field: string): string | null =>
  KEY_ARRAY_TYPES[fieldOf(model, field)?.type ?? ''] ?? null;

const distinctKeys = (rows: ModelRow[], field: string) => [
  ...new Set(rows.map((row) => row[field]).filter((key) => key !== null)),
];

/** `readers` (model-rows.ts) with the plan's relations read for every page of rows they give. */
export function withIncludes(
  db: Database,
  model: Prisma.ModelName,
  readers: SqlPageReaders,
  plan: IncludesPlan,
): SqlPageReaders {
  if (plan.includes.length === 0 && plan.counts.length === 0) return readers;
  return {
    ids: readers.ids,
    rows: async (args) => {
      const rows = await readers.rows(args);
      await attachIncludes(db, model, rows, plan);
      return rows;
    },
    rowsCounted: async (args, limit) => {
      const page = await readers.rowsCounted(args, limit);
      await attachIncludes(db, model, page.rows, plan);
      return page;
    },
  };
}

/** Reads the plan's relations for `rows` (rows of `model`) and sets them on each row, as Prisma's include does. */
export async function attachIncludes(
  db: Database,
  model: Prisma.ModelName,
  rows: ModelRow[],
  plan: IncludesPlan,
): Promise<void> {
  if (rows.length === 0) return;
  await Promise.all([
    ...plan.includes.map((include) => attachRelation(db, model, rows, include)),
    ...plan.counts.map((relation) => attachCount(db, model, rows, relation)),
  ]);
}

async function attachRelation(db: Database, model: Prisma.ModelName, rows: ModelRow[], include: IncludePlan) {
  const { relation } = include;
  const shape = rowShape(db, relation.target, include.fields)!;
  const table = tableOf(db.prisma, relation.target);
  const keys = distinctKeys(rows, relation.parentKey);
  const keyColumn = `${quote(table.name)}.${quote(table.columns.get(relation.targetKey)!)}`;
  const keyType = keyArrayType(model, relation.parentKey)!;
  let related: ModelRow[] = [];
  if (keys.length > 0 && !relation.list) {
    related = await readShapedRows(
      db,
      shape,
      `SELECT ${shape.select} FROM ${quote(table.name)} WHERE ${keyColumn} = ANY($1::${keyType})`,
      [keys],
    );
  } else if (keys.length > 0) {
    // Per parent, in the relation's order and cut to its `take`: a lateral read per key, which an index on the
    // foreign key (and order) serves without reading a parent's other rows.
    const { from, params } = whereToSql(db.prisma, relation.target, include.where ?? {}, `${keyColumn} = parent.key`);
    const keyParam = params.push(keys);
    let inner = `SELECT ${shape.select} ${from}${orderSql(table, include.orderBy)}`;
    if (include.take !== undefined) inner += ` LIMIT $${params.push(include.take)}`;
    related = await readShapedRows(
      db,
      shape,
      `SELECT related.* FROM unnest($${keyParam}::${keyType}) AS parent(key) CROSS JOIN LATERAL (${inner}) AS related`,
      params,
    );
  }
  await attachIncludes(db, relation.target, related, include.nested);
  const byKey = new Map<unknown, ModelRow[]>();
  for (const row of related) {
    const key = row[relation.targetKey];
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  for (const row of rows) {
    const found = byKey.get(row[relation.parentKey]) ?? [];
    row[relation.name] = relation.list ? found : (found[0] ?? null);
  }
}

async function attachCount(db: Database, model: Prisma.ModelName, rows: ModelRow[], relation: Relation) {
  const table = tableOf(db.prisma, relation.target);
  const keyColumn = quote(table.columns.get(relation.targetKey)!);
  const counted = await db.sql.query<{ key: unknown; count: number }>(
    `SELECT ${keyColumn} AS key, count(*)::int AS count FROM ${quote(table.name)}
      WHERE ${keyColumn} = ANY($1::${keyArrayType(model, relation.parentKey)!}) GROUP BY 1`,
    [distinctKeys(rows, relation.parentKey)],
    { prepared: true },
  );
  const byKey = new Map(counted.map((row) => [row.key, row.count]));
  for (const row of rows) {
    const counts = (row._count ??= {}) as Record<string, number>;
    counts[relation.name] = byKey.get(row[relation.parentKey]) ?? 0;
  }
}
