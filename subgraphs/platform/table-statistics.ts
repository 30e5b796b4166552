import type { SqlClient } from './database.ts';
import { quote, quoteLiteral } from './where-sql.ts';

/**
 * Planner statistics of a table (docs/api.md, "Totals"). A list's estimated `total` is only as good as the last
 * `ANALYZE`: PGlite has no autovacuum, and a table imported or grown since its last `ANALYZE` has histograms that
 * know nothing of the new rows (a `trade_date >= …` filter over freshly imported years is estimated from the
 * default selectivity, a third of the table). Writers call `analyzeTables`; readers ask `statisticsAreStale`
 * before trusting an estimate.
 */

/**
 * Growth of the table's pages since its statistics were gathered past which they are stale: above autovacuum's
 * default re-analyze point (10 % of the rows changed), so a PostgreSQL server keeping up with autovacuum never
 * reaches it.
 */
export const STALE_GROWTH = 0.2;

/** `ANALYZE` each table (bounded work: a sample of 30,000 rows per table at the default statistics target). */
export async function analyzeTables(sql: SqlClient, tables: Iterable<string>): Promise<void> {
  for (const table of new Set(tables)) await sql.query(`ANALYZE ${quote(table)}`);
}

interface StatisticsRow {
  analyzed: boolean;
  reltuples: number;
  relpages: number;
  pages: number;
}

/**
 * Whether the planner's statistics of `table` are missing or out of date. Measured from the catalogs alone, so
 * the answer is the same on PGlite (whose cumulative statistics, `pg_stat_user_tables`, are not kept up to
 * date within its single session) and PostgreSQL:
 * - never analyzed: no column statistics (`pg_stats`), or `reltuples` still -1;
 * - grown: the table's pages now (`pg_relation_size`) exceed those of its last `ANALYZE`/`VACUUM` (`relpages`)
 *   by more than `STALE_GROWTH` (updates grow it too: each writes a new row version).
 * PostgreSQL's change counter (`pg_stat_user_tables.n_mod_since_analyze`) is not read: a backend reports its
 * writes to it up to seconds after they commit, so right after an import that ended with `ANALYZE` it climbs
 * again and would call fresh statistics stale (autovacuum re-analyzes such tables on PostgreSQL anyway).
 */
export async function statisticsAreStale(sql: SqlClient, table: string): Promise<boolean> {
  const [row] = await sql.query<StatisticsRow>(
    `SELECT EXISTS (SELECT 1 FROM pg_stats p WHERE p.schemaname = n.nspname AND p.tablename = c.relname) AS analyzed,
            c.reltuples::float8 AS reltuples, c.relpages::float8 AS relpages,
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 AS pages
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.oid = to_regclass(${quoteLiteral(quote(table))})`,
    [],
    // Planning the join of the pg_stats view took 1.8 ms, running it 0.3 ms (10M records), and a list reusing its
    // total's estimate asks this on every page. Prepared without parameters, it is planned once per connection:
    // PostgreSQL keeps a generic plan for a statement without parameters whatever plan_cache_mode says. One text
    // per table, from the schema's own table names.
    { prepared: true },
  );
  if (!row) return true; // no such table: nothing to trust
  if (!row.analyzed || row.reltuples < 0) return true;
  return row.pages > row.relpages * (1 + STALE_GROWTH);
}
