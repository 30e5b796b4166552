import type { RuntimeDataModel } from '@prisma/client/runtime/client';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { env } from './config.ts';
import type { Database, PrismaClient } from './database.ts';
import { statisticsAreStale } from './table-statistics.ts';

/**
 * The `total` of a list (docs/api.md, "Totals"): exact up to `EXACT_TOTAL_LIMIT` matches, counted by a
 * `LIMIT` subquery that stops there whatever the table size; above it the planner's estimate, flagged.
 * The count is SQL rather than Prisma's `count({ take })`, which orders the capped subquery by id and so
 * defeats the index-only scans that make selective counts cheap.
 */
export interface Total {
  total: number;
  isEstimate: boolean;
}

export const exactTotal = (total: number): Total => ({ total, isEstimate: false });

/** A `where` uses an operator the translator does not know: a bug to fix here, never a silent fallback. */
export class UntranslatableWhereError extends Error {}

interface Table {
  name: string;
  columns: Map<string, string>;
}

const tables = new Map<string, Table>();

/** Table and column names from the Prisma schema's `@@map`/`@map`, as the client itself knows them. */
function tableOf(prisma: PrismaClient, model: Prisma.ModelName): Table {
  let table = tables.get(model);
  if (!table) {
    const dataModel = (prisma as unknown as { _runtimeDataModel: RuntimeDataModel })._runtimeDataModel;
    const definition = dataModel.models[model];
    if (!definition) throw new UntranslatableWhereError(`unknown model ${model}`);
    const columns = new Map<string, string>();
    for (const field of definition.fields)
      if (field.kind === 'scalar') columns.set(field.name, field.dbName ?? field.name);
    table = { name: definition.dbName ?? model, columns };
    tables.set(model, table);
  }
  return table;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

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
    } else if (operator in COMPARISONS && !insensitive && value !== null) {
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
 * Filter pairs that have a GIN index of one key per pair (hand-written migrations): a state with a practice area
 * is counted through that index alone, instead of intersecting a bitmap of each (which no LIMIT can cut short).
 */
const PAIR_INDEXES: { model: Prisma.ModelName; fn: string; equals: string; has: string }[] = [
  { model: 'Attorney', fn: 'verticals_state_practice_areas', equals: 'state', has: 'practiceAreas' },
];

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

/** A Prisma `where` of one model as parameterised SQL with the same meaning. */
export function whereToSql(prisma: PrismaClient, model: Prisma.ModelName, where: object): WhereSql {
  const table = tableOf(prisma, model);
  const params: unknown[] = [];
  const pair = pairCondition(model, table, where as Record<string, unknown>, params);
  const condition = pair
    ? joinAll([pair.condition, whereCondition(table, pair.rest, params)], 'AND', 'TRUE')
    : whereCondition(table, where, params);
  return { from: `FROM ${quote(table.name)}${condition ? ` WHERE ${condition}` : ''}`, params };
}

interface PlanNode {
  'Plan Rows': number;
}

/**
 * How far a list over a table with stale statistics is counted exactly, instead of the `EXACT_TOTAL_LIMIT`: an
 * estimate from stale statistics can be off by any factor (10,001 for 15,367 trades, measured after an import
 * that did not analyze), so past the usual limit the count goes on, still capped so that a request's work
 * stays bounded (an index-only count of a million entries takes a few hundred milliseconds).
 */
export const STALE_EXACT_TOTAL_LIMIT = 1_000_000;

const cappedCount = async (db: Database, from: string, params: unknown[], limit: number) => {
  const [capped] = await db.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${limit + 1}) AS capped`,
    params,
  );
  return capped!.n;
};

/**
 * Counts the rows a list's `where` selects: exactly up to `limit`. Past it the planner's estimate of the same
 * statement decides: at most `recountLimit` (a real list of 15,365 trades), the count goes on exactly up to
 * `recountLimit`, which costs lists of that size some milliseconds (docs/api.md "Totals" has the bench figures);
 * above it (an unfiltered list of millions) the estimate is the total, flagged and never below what a count saw. When the table's statistics
 * are stale (table-statistics.ts) the estimate is not trusted: the count goes on exactly up to
 * `STALE_EXACT_TOTAL_LIMIT`, and only past that is the estimate used.
 */
export async function countTotal(
  db: Database,
  model: Prisma.ModelName,
  where: object,
  limit = env.EXACT_TOTAL_LIMIT,
  recountLimit = env.EXACT_TOTAL_RECOUNT_LIMIT,
): Promise<Total> {
  const { from, params } = whereToSql(db.prisma, model, where);
  const counted = await cappedCount(db, from, params, limit);
  if (counted <= limit) return exactTotal(counted);
  let floor = limit + 1;
  if (limit < STALE_EXACT_TOTAL_LIMIT && (await statisticsAreStale(db.sql, tableOf(db.prisma, model).name))) {
    const recounted = await cappedCount(db, from, params, STALE_EXACT_TOTAL_LIMIT);
    if (recounted <= STALE_EXACT_TOTAL_LIMIT) return exactTotal(recounted);
    floor = STALE_EXACT_TOTAL_LIMIT + 1;
  }
  const [explained] = await db.sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT 1 ${from}`, params);
  const plan = explained!['QUERY PLAN'];
  const [root] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
  const estimate = Math.round(root!.Plan['Plan Rows']);
  if (floor <= recountLimit && estimate <= recountLimit) {
    const recounted = await cappedCount(db, from, params, recountLimit);
    if (recounted <= recountLimit) return exactTotal(recounted);
    floor = recountLimit + 1;
  }
  return { total: Math.max(floor, estimate), isEstimate: true };
}
