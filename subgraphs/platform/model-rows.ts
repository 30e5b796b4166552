import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Database } from './database.ts';
import type { PageArgs, PageReaders } from './deep-page.ts';
import { cappedCount, cappedCountSql } from './totals.ts';
import { UntranslatableWhereError, quote, tableOf, whereToSql } from './where-sql.ts';
import type { Column, Table } from './where-sql.ts';

/**
 * A page of rows of one model read through `pg` as a prepared statement instead of Prisma's `findMany`: the same
 * rows, keys and values (Prisma's types), whole or only the fields the GraphQL selection reads (selected-fields.ts).
 * Prisma compiles and interprets each call and maps every value back through its adapter; for a page of 25
 * records that was more CPU than the statement itself (docs/performance.md, item 20).
 */
export type ModelRow = Record<string, unknown> & { id: number };

export interface RowShape {
  /** The select list: every stored field read, under its Prisma name. */
  select: string;
  /** Turns the values `pg` cannot give in Prisma's type (dates) into it, in place. */
  convert: ((row: Record<string, unknown>) => void) | null;
}

const shapes = new Map<string, RowShape | null>();

/**
 * How a stored field is selected, and parsed when `pg` cannot give Prisma's type. Dates travel as epoch
 * milliseconds: the same number on PostgreSQL and PGlite whatever their session time zone (`extract` reads a
 * timestamp without time zone as UTC, as Prisma does), where a `timestamp` value would be parsed in the
 * process's local zone. Types no model's page has yet (enums, Decimal, BigInt, Bytes, lists other than text)
 * are null: such a model stays on Prisma until they are added here with a test.
 */
function selectExpression(
  table: Table,
  column: Column,
): { expression: string; parse?: (value: unknown) => unknown } | null {
  const source = `${quote(table.name)}.${quote(column.name)}`;
  if (column.kind !== 'scalar') return null;
  if (column.isList) return column.type === 'String' ? { expression: source } : null;
  switch (column.type) {
    case 'String':
    case 'Int':
    case 'Float':
    case 'Boolean':
    case 'Json':
      return { expression: source };
    case 'DateTime':
      return {
        expression: `(extract(epoch FROM ${source}) * 1000)::float8`,
        parse: (value) => new Date(value as number),
      };
    default:
      return null;
  }
}

/**
 * Distinct narrowed select lists kept per model. Each is a statement text prepared on every connection that runs
 * it; a client choosing its fields could otherwise make PostgreSQL keep one per combination. Past the bound a
 * selection reads whole rows, whose statements are already prepared.
 */
const MAX_NARROW_SHAPES_PER_MODEL = 64;
const narrowShapes = new Map<string, number>();

/**
 * The select list and conversion of `model`'s rows: every stored field, or only `fields` (selected-fields.ts) in
 * the table's order, so one selection always gives one statement text. Null when a field read has a type
 * `selectExpression` does not know.
 */
export function rowShape(db: Database, model: Prisma.ModelName, fields?: ReadonlySet<string> | null): RowShape | null {
  const table = tableOf(db.prisma, model);
  const columns = fields ? table.fields.filter((column) => fields.has(column.field)) : table.fields;
  const key = fields ? `${model}:${columns.map((column) => column.field).join(',')}` : model;
  let shape = shapes.get(key);
  if (shape !== undefined) return shape;
  if (fields) {
    const count = narrowShapes.get(model) ?? 0;
    if (count >= MAX_NARROW_SHAPES_PER_MODEL) return rowShape(db, model);
    narrowShapes.set(model, count + 1);
  }
  const parts = columns.map((column) => ({ column, select: selectExpression(table, column) }));
  if (parts.some((part) => part.select === null)) shape = null;
  else {
    const parsers = parts.flatMap(({ column, select }) =>
      select!.parse ? [{ field: column.field, parse: select!.parse }] : [],
    );
    shape = {
      select: parts.map(({ column, select }) => `${select!.expression} AS ${quote(column.field)}`).join(', '),
      convert: parsers.length
        ? (row) => {
            for (const { field, parse } of parsers) if (row[field] !== null) row[field] = parse(row[field]);
          }
        : null,
    };
  }
  shapes.set(key, shape);
  return shape;
}

/** A Prisma `orderBy` (one object or a list of them, each one field and a direction) as SQL. */
export function orderSql(table: Table, orderBy: unknown): string {
  const terms = (Array.isArray(orderBy) ? orderBy : orderBy ? [orderBy] : []) as Record<string, unknown>[];
  const parts = terms.flatMap((term) =>
    Object.entries(term).map(([field, direction]) => {
      const column = table.columns.get(field);
      if (!column || (direction !== 'asc' && direction !== 'desc'))
        throw new UntranslatableWhereError(`order ${JSON.stringify(term)} of ${table.name}`);
      return `${quote(table.name)}.${quote(column)} ${direction === 'asc' ? 'ASC' : 'DESC'}`;
    }),
  );
  return parts.length ? ` ORDER BY ${parts.join(', ')}` : '';
}

/**
 * A page's statement: `select` from the model's table, filtered, ordered and cut as `args` say. A page's texts are
 * few (which filters are set, which sort), so each is prepared once per connection.
 */
function pageStatement(
  db: Database,
  model: Prisma.ModelName,
  select: string,
  args: PageArgs<object, unknown>,
): { text: string; params: unknown[]; from: string; filterParams: number } {
  const table = tableOf(db.prisma, model);
  const { from, params } = whereToSql(db.prisma, model, args.where);
  const filterParams = params.length;
  let text = `SELECT ${select} ${from}${orderSql(table, args.orderBy)}`;
  if (args.take !== undefined) text += ` LIMIT $${params.push(args.take)}`;
  if (args.skip) text += ` OFFSET $${params.push(args.skip)}`;
  return { text, params, from, filterParams };
}

/** Runs a prepared statement selecting `shape.select` and gives its rows in Prisma's types. */
export async function readShapedRows<Row>(
  db: Database,
  shape: RowShape,
  text: string,
  params: unknown[],
): Promise<Row[]> {
  const rows = await db.sql.query<Record<string, unknown>>(text, params, { prepared: true });
  if (shape.convert) rows.forEach(shape.convert);
  return rows as Row[];
}

export interface SqlPageReaders extends PageReaders<object, unknown, ModelRow> {
  /**
   * A page's rows and the capped count of its `where` (totals.ts) in one statement, the count an uncorrelated
   * subquery PostgreSQL runs once. A page past the last has no row to carry the count: it is counted alone.
   */
  rowsCounted: (args: PageArgs<object, unknown>, limit: number) => Promise<{ rows: ModelRow[]; counted: number }>;
}

const COUNT_COLUMN = '__capped_count';

/**
 * The page readers of deep-page.ts over `pg`, reading `fields` of each row (and always its id) or whole rows; null
 * when a field read has a type they cannot read.
 */
export function sqlPageReaders(
  db: Database,
  model: Prisma.ModelName,
  fields?: ReadonlySet<string> | null,
): SqlPageReaders | null {
  const shape = rowShape(db, model, fields && new Set([...fields, 'id']));
  if (!shape) return null;
  const table = tableOf(db.prisma, model);
  const idColumn = `${quote(table.name)}.${quote(table.columns.get('id')!)} AS "id"`;
  return {
    ids(args) {
      const { text, params } = pageStatement(db, model, idColumn, args);
      return db.sql.query<{ id: number }>(text, params, { prepared: true });
    },
    rows(args) {
      const { text, params } = pageStatement(db, model, shape.select, args);
      return readShapedRows<ModelRow>(db, shape, text, params);
    },
    async rowsCounted(args, limit) {
      const { text, params, from, filterParams } = pageStatement(db, model, shape.select, args);
      const rows = await readShapedRows<ModelRow>(
        db,
        shape,
        `SELECT page.*, (${cappedCountSql(from, limit)}) AS "${COUNT_COLUMN}" FROM (${text}) AS page`,
        params,
      );
      if (rows.length === 0)
        return { rows, counted: await cappedCount(db, from, params.slice(0, filterParams), limit) };
      const counted = rows[0]![COUNT_COLUMN] as number;
      // The last column: deleting it keeps the rows' fast shape (V8 undoes the last property's transition).
      for (const row of rows) delete row[COUNT_COLUMN];
      return { rows, counted };
    },
  };
}

/**
 * Whole rows of a model read by a statement the caller writes (the latest rows per ticker of a lateral join, rows
 * by a list of keys): `columns` is the select list, every stored field under its Prisma name, for a statement
 * that reads the model's table unaliased; `read` runs the statement, prepared, and gives the rows in Prisma's
 * types, as `findMany` would. Throws for a model with a field type `pg` is not read for here (selectExpression).
 */
export function wholeRows<Row>(
  db: Database,
  model: Prisma.ModelName,
): { columns: string; read: (text: string, params: unknown[]) => Promise<Row[]> } {
  const shape = rowShape(db, model);
  if (!shape) throw new Error(`${model} has a field type model-rows.ts does not read`);
  return { columns: shape.select, read: (text, params) => readShapedRows<Row>(db, shape, text, params) };
}
