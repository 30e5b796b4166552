import type { SqlClient } from '../../subgraphs/platform/database.ts';
import { marketPublishingCtes } from '../../subgraphs/data-loading.ts';
import type { ImportCounts } from './importer.ts';

/**
 * A table written by upsert: rows go over as one JSON parameter (`jsonb_to_recordset`), so a batch of a
 * thousand rows is one statement with one parameter on PGlite and PostgreSQL alike.
 */
export interface UpsertTable {
  table: string;
  /** Column → SQL type, in the order of the row objects' properties. */
  columns: Record<string, string>;
  /** The natural key: the conflict target. */
  key: readonly string[];
  /** Columns filled only on insert, as SQL expressions (`{id: 'gen_random_uuid()'}`). */
  insertOnly?: Record<string, string>;
  /** Columns written on insert but never overwritten (e.g. a `fetched_at` set by a later step). */
  keep?: readonly string[];
  /** Columns written when still null and never changed afterwards (a first `fetched_at`). */
  fillOnly?: readonly string[];
  /** Text columns written when still null or empty and never changed afterwards (a lower-precedence source). */
  fillEmpty?: readonly string[];
  /** A timestamp column (not among `columns`) set to now() when a stored row changes, not on unchanged rows. */
  touch?: string;
  /**
   * When several records share a key (a filing listed once per filer), which one stands, whatever the order
   * they arrive in: an SQL condition over `t` (stored) and `EXCLUDED` (incoming) for rows already written, and
   * the same rule in TypeScript for rows of one batch.
   */
  prefer?: { sql: string; incoming(incoming: Row, existing: Row): boolean };
  /**
   * The webhook events of the written rows: a SELECT of `(type, data, attributes)` over `written r`, the rows
   * the upsert returned with `r.inserted` (subgraphs/markets/webhooks/events.ts). They are written by the same
   * statement as the rows (docs/webhooks.md, the outbox).
   */
  events?: string;
}

export type Row = Record<string, unknown>;

const BATCH_ROWS = 1000;
const KEY_SEPARATOR = '\u0001';

/**
 * Upserts rows and reports which were inserted and which updated; rows already present with the same values
 * are left alone (no write, no dead tuple) and are absent from the result.
 */
export async function upsertRows(
  sql: SqlClient,
  spec: UpsertTable,
  rows: Row[],
): Promise<Map<string, 'inserted' | 'updated'>> {
  const columns = Object.keys(spec.columns);
  const insertOnly = Object.entries(spec.insertOnly ?? {});
  const updatable = columns.filter((column) => !spec.key.includes(column) && !spec.keep?.includes(column));
  const recordType = columns.map((column) => `${column} ${spec.columns[column]}`).join(', ');
  const incoming = (column: string) => {
    if (spec.fillOnly?.includes(column)) return `COALESCE(t.${column}, EXCLUDED.${column})`;
    if (spec.fillEmpty?.includes(column))
      return `CASE WHEN coalesce(t.${column}, '') = '' THEN EXCLUDED.${column} ELSE t.${column} END`;
    return `EXCLUDED.${column}`;
  };
  const assignments = updatable.map((column) => `${column} = ${incoming(column)}`);
  if (spec.touch) assignments.push(`${spec.touch} = now()`);
  const onConflict = updatable.length
    ? `DO UPDATE SET ${assignments.join(', ')}
       WHERE (${updatable.map((column) => `t.${column}`).join(', ')}, NULL) IS DISTINCT FROM
             (${updatable.map(incoming).join(', ')}, NULL)${spec.prefer ? ` AND (${spec.prefer.sql})` : ''}`
    : 'DO NOTHING';
  const key = spec.key.map((column) => `t.${column}::text`).join(` || '${KEY_SEPARATOR}' || `);
  const upsert = `
    INSERT INTO ${spec.table} AS t (${[...insertOnly.map(([column]) => column), ...columns].join(', ')})
    SELECT ${[...insertOnly.map(([, expression]) => expression), ...columns].join(', ')}
    FROM jsonb_to_recordset($1::jsonb) AS x(${recordType})
    ON CONFLICT (${spec.key.join(', ')}) ${onConflict}`;
  const text = spec.events
    ? `WITH written AS (${upsert} RETURNING t.*, ${key} AS key, (xmax = 0) AS inserted),
       ${marketPublishingCtes(spec.events)}
       SELECT key, inserted FROM written`
    : `${upsert} RETURNING ${key} AS key, (xmax = 0) AS inserted`;
  const returned = await sql.query<{ key: string; inserted: boolean }>(text, [JSON.stringify(rows)]);
  return new Map(returned.map((row) => [row.key, row.inserted ? 'inserted' : 'updated']));
}

/**
 * Collects the rows of records and writes them in batches of about a thousand rows. A record may need several
 * rows (a yield-curve day is one row per tenor): it counts as inserted when any of its rows was new, updated
 * when any changed, and skipped when all were already there unchanged.
 */
export class BatchWriter {
  private rows = new Map<string, Row>();
  private records: { keys: string[] }[] = [];

  constructor(
    private readonly sql: SqlClient,
    private readonly spec: UpsertTable,
    private readonly counts: ImportCounts,
    private readonly afterFlush?: () => Promise<void>,
  ) {}

  async add(...rows: Row[]): Promise<void> {
    const keys = rows.map((row) => this.keyOf(row));
    // A key met twice in a batch: one row goes (Postgres refuses to upsert a row twice in one statement); the
    // later record wins unless the table says which to prefer.
    rows.forEach((row, index) => {
      const existing = this.rows.get(keys[index]!);
      if (!existing || !this.spec.prefer || this.spec.prefer.incoming(row, existing)) this.rows.set(keys[index]!, row);
    });
    this.records.push({ keys });
    if (this.rows.size >= BATCH_ROWS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.records.length === 0) return;
    const results = await upsertRows(this.sql, this.spec, [...this.rows.values()]);
    for (const record of this.records) {
      const statuses = record.keys.map((key) => results.get(key));
      if (statuses.includes('inserted')) this.counts.inserted += 1;
      else if (statuses.includes('updated')) this.counts.updated += 1;
      else this.counts.skipped += 1;
      // A record counts once even when a later record of the batch had the same key.
      record.keys.forEach((key) => results.delete(key));
    }
    this.rows.clear();
    this.records = [];
    await this.afterFlush?.();
  }

  private keyOf(row: Row): string {
    return this.spec.key.map((column) => String(row[column])).join(KEY_SEPARATOR);
  }
}
