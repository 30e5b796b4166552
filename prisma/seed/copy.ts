import type { Database } from '../../subgraphs/shared/database.ts';

/**
 * Rows to COPY ... WITH (FORMAT csv). Generators yield plain arrays in column order (no objects: at tens of
 * millions of rows the property lookups show), batches become one CSV string each, and the string stream goes
 * to `db.sql.copy`, so a table is never held in memory whole.
 */

/** A value of one column. Strings that look like `YYYY-MM-DD` are how date columns are written. */
export type Value = string | number | boolean | bigint | Date | null | readonly string[];
export type Row = readonly Value[];

const NEEDS_QUOTES = /[",\r\n]/;

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** One element of a Postgres array literal: always quoted, so commas and braces inside need no thought. */
function arrayElement(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function csvField(value: Value): string {
  if (value === null) return ''; // an unquoted empty field is NULL in CSV COPY
  switch (typeof value) {
    case 'string':
      // A quoted empty field is the empty string; `\.` alone would end the data, so it is quoted as well.
      if (value === '' || value === '\\.') return quote(value);
      return NEEDS_QUOTES.test(value) ? quote(value) : value;
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`cannot COPY the number ${value}`);
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'bigint':
      return value.toString();
    default:
      if (value instanceof Date) return value.toISOString();
      return quote(`{${value.map(arrayElement).join(',')}}`);
  }
}

export function csvLine(row: Row): string {
  let line = '';
  for (let i = 0; i < row.length; i++) {
    if (i > 0) line += ',';
    line += csvField(row[i] as Value);
  }
  return `${line}\n`;
}

export function toCsv(rows: readonly Row[]): string {
  let text = '';
  for (const row of rows) text += csvLine(row);
  return text;
}

/** Groups a row stream into arrays of `size` rows. */
export function* batched(rows: Iterable<Row>, size: number): Generator<Row[]> {
  let batch: Row[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A table's rows as CSV text, one chunk per batch: what COPY reads, and what the determinism test hashes. */
export function* csvChunks(batches: Iterable<Row[]>): Generator<string> {
  for (const batch of batches) yield toCsv(batch);
}

/**
 * Streams row batches into `table` with COPY. `onRows` hears the running row count after each batch is
 * handed over. Returns the number of rows sent.
 */
export async function copyRows(
  db: Database,
  table: string,
  columns: readonly string[],
  batches: Iterable<Row[]>,
  onRows?: (rows: number) => void,
): Promise<number> {
  let rows = 0;
  async function* chunks(): AsyncGenerator<string> {
    for (const batch of batches) {
      const text = toCsv(batch);
      rows += batch.length;
      onRows?.(rows);
      yield text;
    }
  }
  await db.sql.copy(table, columns, chunks());
  return rows;
}
