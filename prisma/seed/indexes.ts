import type { Database } from '../../subgraphs/platform/database.ts';
import { quote, quoteLiteral } from '../../subgraphs/platform/where-sql.ts';

/**
 * Index and sequence housekeeping around a bulk load. Building an index once over loaded rows is several
 * times faster than updating it row by row during COPY, so large loads drop the secondary indexes first and
 * recreate them from the definitions Postgres reports. The definitions are parked in a table until they are
 * recreated, so a load killed half-way is repaired by the next run (`restoreDroppedIndexes`).
 */
export interface IndexDefinition {
  name: string;
  table: string;
  definition: string;
}

const PARKING = '_seed_dropped_indexes';

/** Non-unique, non-primary-key indexes of `tables`: the ones no constraint depends on. */
export async function secondaryIndexes(db: Database, tables: readonly string[]): Promise<IndexDefinition[]> {
  return db.sql.query<IndexDefinition>(
    `SELECT i.indexname AS name, i.tablename AS "table", i.indexdef AS definition
     FROM pg_indexes i
     JOIN pg_namespace n ON n.nspname = i.schemaname
     JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = n.oid
     JOIN pg_index x ON x.indexrelid = c.oid
     WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
       AND NOT x.indisunique AND NOT x.indisprimary
     ORDER BY i.tablename, i.indexname`,
    [tables],
  );
}

export async function dropIndexes(db: Database, indexes: readonly IndexDefinition[]): Promise<void> {
  if (indexes.length === 0) return;
  await db.sql.query(`CREATE TABLE IF NOT EXISTS ${PARKING} (name text PRIMARY KEY, definition text NOT NULL)`);
  for (const index of indexes) {
    await db.sql.query(`INSERT INTO ${PARKING} (name, definition) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
      index.name,
      index.definition,
    ]);
    await db.sql.query(`DROP INDEX IF EXISTS ${quote(index.name)}`);
  }
}

/**
 * Recreates indexes, two at a time on PostgreSQL (one per core here; each build may use parallel workers
 * too) with a larger sort memory for the build, one at a time on PGlite (a single connection).
 */
export async function createIndexes(db: Database, indexes: readonly IndexDefinition[]): Promise<void> {
  const queue = [...indexes];
  const worker = async () => {
    for (let index = queue.shift(); index; index = queue.shift()) {
      const statement = index.definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ');
      if (db.engine === 'postgres') {
        // set_config(..., true) lasts for this statement's transaction only, whichever pooled connection runs it.
        await db.sql.query(
          `DO $do$ BEGIN PERFORM set_config('maintenance_work_mem', '512MB', true); EXECUTE ${quoteLiteral(statement)}; END $do$`,
        );
      } else {
        await db.sql.query(statement);
      }
      await db.sql.query(`DELETE FROM ${PARKING} WHERE name = $1`, [index.name]).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: db.engine === 'postgres' ? 2 : 1 }, worker));
  await db.sql.query(`DROP TABLE IF EXISTS ${PARKING}`);
}

/** Recreates indexes a previous, interrupted load dropped. Returns how many. */
export async function restoreDroppedIndexes(db: Database): Promise<number> {
  const [parking] = await db.sql.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [PARKING]);
  if (!parking?.exists) return 0;
  const parked = await db.sql.query<{ name: string; definition: string }>(`SELECT name, definition FROM ${PARKING}`);
  await createIndexes(
    db,
    parked.map((row) => ({ ...row, table: '' })),
  );
  return parked.length;
}

/** Moves each table's id sequence past the explicit ids COPY wrote, so the next insert does not collide. */
export async function resetSequences(db: Database, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await db.sql.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 1) FROM ${table}))`,
    );
  }
}

/**
 * VACUUM as well as ANALYZE: COPY leaves every page out of the visibility map, so until autovacuum reaches a
 * freshly loaded table Postgres cannot answer counts and deep pages with index-only scans and visits the heap
 * for every row instead, and a bench started right after the load would measure that rather than the service.
 */
export async function vacuumAnalyze(db: Database, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.sql.query(`VACUUM (ANALYZE) ${quote(table)}`);
}
