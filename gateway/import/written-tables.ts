import type { Database, SqlClient } from '../../subgraphs/platform/database.ts';

/**
 * The tables an import wrote, so the runner can `ANALYZE` exactly those (docs/data-sources.md, "Statistics").
 * Importers write through `db.sql` (the batch writer's upserts, `UPDATE`s such as marking superseded trades,
 * the rejects log, `COPY`): the runner hands them a database whose SQL client notes the target of each write,
 * so an importer added later is covered without declaring anything.
 */

// `INSERT INTO t`, `UPDATE t`, `DELETE FROM t`, anywhere in a statement (a `WITH … UPDATE` too); `ON CONFLICT …
// DO UPDATE SET` and `FOR UPDATE` name no table and are skipped by the lookbehind. A name that still is not a
// table is dropped when the runner resolves the names (to_regclass).
const WRITE =
  /(?<!\bDO\s+|\bFOR\s+)\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?)/gi;

export function tablesWrittenBy(statement: string): string[] {
  return [...statement.matchAll(WRITE)].map((match) => match[1]!);
}

export interface RecordingDatabase {
  db: Database;
  /** Table names as the statements spelled them (possibly quoted or schema-qualified). */
  written: Set<string>;
}

/** `db` with an SQL client that records the tables written through it; everything else is `db` itself. */
export function recordWrites(db: Database): RecordingDatabase {
  const written = new Set<string>();
  const sql: SqlClient = {
    query(text, params) {
      for (const table of tablesWrittenBy(text)) written.add(table);
      return db.sql.query(text, params);
    },
    copy(table, columns, chunks) {
      written.add(table);
      return db.sql.copy(table, columns, chunks);
    },
  };
  return { db: { ...db, sql }, written };
}

/** The written names that are tables or materialized views of this database, as `ANALYZE` takes them. */
export async function existingTables(sql: SqlClient, names: Iterable<string>): Promise<string[]> {
  const candidates = [...new Set(names)];
  if (candidates.length === 0) return [];
  const rows = await sql.query<{ name: string }>(
    `SELECT DISTINCT c.relname AS name
       FROM unnest($1::text[]) AS candidate(name)
       JOIN pg_class c ON c.oid = to_regclass(candidate.name)
      WHERE c.relkind IN ('r', 'm', 'p')`,
    [candidates],
  );
  return rows.map((row) => row.name).sort();
}
