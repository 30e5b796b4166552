import type { RuntimeDataModel } from '@prisma/client/runtime/client';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { PrismaClient } from './database.ts';

// A Prisma `where` of one model as parameterised SQL with the same meaning, for the statements that go through
// `pg` rather than Prisma: list totals (totals.ts) and page reads (model-rows.ts).

/** A `where` uses an operator the translator does not know: a bug to fix here, never a silent fallback. */
export class UntranslatableWhereError extends Error {}

/** A stored field of a model as the Prisma client knows it. */
export interface Column {
  field: string;
  /** Its column name (`@map`). */
  name: string;
  /** Prisma's scalar type (`Int`, `DateTime`, …) or the enum's name. */
  type: string;
  kind: 'scalar' | 'enum';
  isList: boolean;
}

export interface Table {
  name: string;
  /** Column names by field name. */
  columns: Map<string, string>;
  /** Every stored field, in the model's order (the order of the keys of Prisma's rows). */
  fields: Column[];
}

const tables = new Map<string, Table>();

/** Table and column names from the Prisma schema's `@@map`/`@map`, as the client itself knows them. */
export function tableOf(prisma: PrismaClient, model: Prisma.ModelName): Table {
  let table = tables.get(model);
  if (!table) {
    const dataModel = (prisma as unknown as { _runtimeDataModel: RuntimeDataModel })._runtimeDataModel;
    const definition = dataModel.models[model];
    if (!definition) throw new UntranslatableWhereError(`unknown model ${model}`);
    const fields: Column[] = definition.fields
      .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
      .map((field) => ({
        field: field.name,
        name: field.dbName ?? field.name,
        type: field.type,
        kind: field.kind as Column['kind'],
        isList: field.isList,
      }));
    table = {
      name: definition.dbName ?? model,
      columns: new Map(fields.map((field) => [field.field, field.name])),
      fields,
    };
    tables.set(model, table);
  }
  return table;
}

/** An SQL identifier, quoted. */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** An SQL string literal, quoted: for text that must be part of a statement (a statement with no parameters). */
export const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Dates are sent as ISO text: `timestamp(3)` columns read it as UTC, `date` columns take the day. */
const parameter = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

type Condition = string | null;

function joinAll(parts: Condition[], operator: 'AND' | 'OR', empty: string): string {
  const present = parts.filter((part): part is string => part !== null);
  if (present.length === 0) return empty;
  return present.length === 1 ? present[0]! : `(${present.join(` ${operator} `)})`;
}

/** The SQL of one field's filter: a value (equality) or an object of the operators our lists use. */
function fieldCondition(column: string, filter: unknown, params: unknown[]): Condition {
  const bind = (value: unknown) => `$${params.push(parameter(value))}`;
  if (filter === undefined) return null;
  if (filter === null) return `${column} IS NULL`;
  if (typeof filter !== 'object' || filter instanceof Date) return `${column} = ${bind(filter)}`;
  const { mode, ...operators } = filter as Record<string, unknown>;
  const insensitive = mode === 'insensitive';
  const parts: Condition[] = [];
  for (const [operator, value] of Object.entries(operators)) {
    if (value === undefined) continue;
    if (operator === 'equals') {
      // Prisma says `ILIKE` for an insensitive `equals`; the total says the same (text-match.ts escapes % and _).
      parts.push(value === null ? `${column} IS NULL` : `${column} ${insensitive ? 'ILIKE' : '='} ${bind(value)}`);
    } else if (operator === 'in' && Array.isArray(value) && !insensitive) {
      parts.push(`${column} = ANY(${bind(value)})`);
    } else if (Object.hasOwn(COMPARISONS, operator) && !insensitive && value !== null) {
      parts.push(`${column} ${COMPARISONS[operator]} ${bind(value)}`);
    } else if (operator === 'has' && value !== null) {
      parts.push(`${column} @> ${bind([value])}`);
    } else {
      throw new UntranslatableWhereError(`operator ${operator}${insensitive ? ' (insensitive)' : ''} on ${column}`);
    }
  }
  return parts.length ? joinAll(parts, 'AND', 'TRUE') : null;
}

const COMPARISONS: Record<string, string> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

function whereCondition(table: Table, where: object, params: unknown[]): Condition {
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const list = Array.isArray(value) ? value : [value];
    if (key === 'AND')
      parts.push(
        joinAll(
          list.map((item) => whereCondition(table, item, params)),
          'AND',
          'TRUE',
        ),
      );
    else if (key === 'OR')
      parts.push(
        joinAll(
          list.map((item) => whereCondition(table, item, params)),
          'OR',
          'FALSE',
        ),
      );
    else if (key === 'NOT') {
      const negated = list.map((item) => whereCondition(table, item, params)).filter((part) => part !== null);
      if (negated.length) parts.push(`NOT ${joinAll(negated, 'OR', 'FALSE')}`);
    } else {
      const column = table.columns.get(key);
      // Relation filters (`company: { … }`) have no column: no list uses one yet.
      if (!column) throw new UntranslatableWhereError(`field ${key} of ${table.name}`);
      parts.push(fieldCondition(`${quote(table.name)}.${quote(column)}`, value, params));
    }
  }
  const present = parts.filter((part) => part !== null);
  return present.length ? joinAll(present, 'AND', 'TRUE') : null;
}

/**
 * A filter pair that has a GIN index of one key per pair (a hand-written migration): an `equals` field with a
 * list field that `has` one value is counted through that index alone, instead of intersecting a bitmap of each
 * (which no LIMIT can cut short). `fn(equals, has)` is the SQL function the index is built over.
 */
export interface PairIndex {
  model: Prisma.ModelName;
  fn: string;
  equals: string;
  has: string;
}

const PAIR_INDEXES: PairIndex[] = [];

/** Registered by the subgraph whose migration built the index (subgraphs/verticals/pair-indexes.ts). */
export function registerPairIndex(pair: PairIndex): void {
  PAIR_INDEXES.push(pair);
}

function pairCondition(model: Prisma.ModelName, table: Table, where: Record<string, unknown>, params: unknown[]) {
  for (const pair of PAIR_INDEXES) {
    const value = where[pair.equals];
    const has = where[pair.has] as { has?: unknown } | undefined;
    if (
      pair.model !== model ||
      typeof value !== 'string' ||
      typeof has?.has !== 'string' ||
      Object.keys(has).length !== 1
    )
      continue;
    const { [pair.equals]: _equals, [pair.has]: _has, ...rest } = where;
    const column = (field: string) => `${quote(table.name)}.${quote(table.columns.get(field)!)}`;
    params.push([`${value}/${has.has}`]);
    return { condition: `${pair.fn}(${column(pair.equals)}, ${column(pair.has)}) @> $${params.length}`, rest };
  }
  return null;
}

export interface WhereSql {
  /** `FROM "table"` and, when the filter says anything, ` WHERE …`. */
  from: string;
  params: unknown[];
}

/**
 * A Prisma `where` of one model as parameterised SQL with the same meaning; `also`, a condition without
 * parameters, is added to it (a lateral read's match on its outer key).
 */
export function whereToSql(prisma: PrismaClient, model: Prisma.ModelName, where: object, also?: string): WhereSql {
  const table = tableOf(prisma, model);
  const params: unknown[] = [];
  const pair = pairCondition(model, table, where as Record<string, unknown>, params);
  const filter = pair
    ? joinAll([pair.condition, whereCondition(table, pair.rest, params)], 'AND', 'TRUE')
    : whereCondition(table, where, params);
  const condition = also ? joinAll([filter, also], 'AND', 'TRUE') : filter;
  return { from: `FROM ${quote(table.name)}${condition ? ` WHERE ${condition}` : ''}`, params };
}
