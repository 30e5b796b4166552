import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { tablesWrittenBy } from '../../gateway/import/written-tables.ts';
import { daysAgo } from '../../subgraphs/markets/types/congressional-trade.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { analyzeTables, statisticsAreStale } from '../../subgraphs/platform/table-statistics.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/**
 * List totals after a real import (docs/api.md "Totals"): the import analyzes what it wrote, so an estimate is
 * close; statistics gone stale (rows written without ANALYZE) make the total exact instead of a bad estimate.
 * EXACT_TOTAL_LIMIT and EXACT_TOTAL_RECOUNT_LIMIT are lowered to 1,000 so the ten thousand House trades take the
 * estimate path; one test puts the recount limit back to show them counted exactly.
 */
const LIMIT = 1000;
const PER_PAGE = 200;
const LIST = `/api/congressional-trades?days=3650&limit=${PER_PAGE}`;

let service: TestService;
let key: string;
const saved = { limit: env.EXACT_TOTAL_LIMIT, recount: env.EXACT_TOTAL_RECOUNT_LIMIT };

beforeAll(async () => {
  service = await startTestService();
  await runImport(service.databases.live, 'house-trades', [REAL_FILES.house], { now: SNAPSHOT_DAY });
  ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  env.EXACT_TOTAL_LIMIT = LIMIT;
  env.EXACT_TOTAL_RECOUNT_LIMIT = LIMIT;
});
afterAll(async () => {
  env.EXACT_TOTAL_LIMIT = saved.limit;
  env.EXACT_TOTAL_RECOUNT_LIMIT = saved.recount;
  await service?.stop();
});

const sql = <Row>(text: string, params: unknown[] = []) => service.databases.live.sql.query<Row>(text, params);

/** The trades the list selects, counted in the database. */
async function tradesInWindow(): Promise<number> {
  const [row] = await sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM congressional_trades WHERE superseded_by_id IS NULL AND trade_date >= $1`,
    [daysAgo(3650).toISOString()],
  );
  return row!.n;
}

/** Pages through the list until an empty page, as a client that does not trust `pages` would. */
async function pageThrough(): Promise<{ rows: number; first: Record<string, unknown>; lastWithRows: number }> {
  let rows = 0;
  let lastWithRows = 0;
  let first: Record<string, unknown> | undefined;
  for (let page = 1; ; page++) {
    const response = await service.get(`${LIST}&page=${page}`, key);
    expect(response.status).toBe(200);
    first ??= response.body;
    if (response.body.trades.length === 0) break;
    rows += response.body.trades.length;
    lastWithRows = page;
  }
  return { rows, first: first!, lastWithRows };
}

describe('an import analyzes the tables it wrote', () => {
  it('leaves the trades, its rejects and the rollups with statistics of what is there', async () => {
    for (const table of ['congressional_trades', 'import_rejects', 'market_trade_days']) {
      const [row] = await sql<{ analyzed: boolean; reltuples: number; n: number }>(
        `SELECT EXISTS (SELECT 1 FROM pg_stats WHERE tablename = $1) AS analyzed,
                (SELECT reltuples::float8 FROM pg_class WHERE relname = $1) AS reltuples,
                (SELECT count(*)::int FROM ${table}) AS n`,
        [table],
      );
      expect(row!.n).toBeGreaterThan(0);
      expect(row).toMatchObject({ analyzed: true, reltuples: row!.n });
      expect(await statisticsAreStale(service.databases.live.sql, table)).toBe(false);
    }
  });

  it('finds the tables a statement writes, not the words of ON CONFLICT or FOR UPDATE', () => {
    expect(
      tablesWrittenBy(
        `WITH x AS (SELECT 1 FROM a FOR UPDATE) INSERT INTO trades AS t (id) SELECT 1 ON CONFLICT (id) DO UPDATE SET id = 2`,
      ),
    ).toEqual(['trades']);
    expect(tablesWrittenBy(`UPDATE "Quoted" t SET x = 1; delete from public.rejects`)).toEqual([
      '"Quoted"',
      'public.rejects',
    ]);
  });
});

describe('total and pages of a list over imported trades', () => {
  it('are exact when the planner puts the list under the recount limit, past the exact limit', async () => {
    env.EXACT_TOTAL_RECOUNT_LIMIT = saved.recount;
    try {
      const expected = await tradesInWindow();
      expect(expected).toBeGreaterThan(LIMIT);
      expect(expected).toBeLessThan(saved.recount);
      const { rows, first } = await pageThrough();
      expect(rows).toBe(expected);
      expect(first).toMatchObject({ total: expected, pages: Math.ceil(expected / PER_PAGE), total_is_estimate: false });
    } finally {
      env.EXACT_TOTAL_RECOUNT_LIMIT = LIMIT;
    }
  });

  it('agree with the rows paged through over REST, or are a flagged estimate close to them', async () => {
    const expected = await tradesInWindow();
    expect(expected).toBeGreaterThan(LIMIT);
    const { rows, first, lastWithRows } = await pageThrough();
    expect(rows).toBe(expected);
    expect(lastWithRows).toBe(Math.ceil(expected / PER_PAGE));
    const total = first.total as number;
    expect(first.pages).toBe(Math.ceil(total / PER_PAGE));
    if (first.total_is_estimate) {
      // Fresh statistics: the planner's estimate of a one-column range, within a few percent (10 % allowed).
      expect(Math.abs(total - expected)).toBeLessThanOrEqual(expected * 0.1);
    } else {
      expect(total).toBe(expected);
    }
  });

  it('is exact when rows were written without ANALYZE (stale statistics), not a stale estimate', async () => {
    // PostgreSQL's autovacuum must not analyze the table behind the test's back; PGlite has none.
    await sql(`ALTER TABLE congressional_trades SET (autovacuum_enabled = false)`);
    // Every trade in force a second time, under another natural key: the table doubles, its statistics do not.
    await sql(`CREATE TEMP TABLE trade_copies AS SELECT * FROM congressional_trades WHERE superseded_by_id IS NULL`);
    await sql(`UPDATE trade_copies SET id = gen_random_uuid(), natural_key = natural_key || '#copy'`);
    await sql(`INSERT INTO congressional_trades SELECT * FROM trade_copies`);
    await sql(`DROP TABLE trade_copies`);
    expect(await statisticsAreStale(service.databases.live.sql, 'congressional_trades')).toBe(true);

    const expected = await tradesInWindow();
    const { rows, first } = await pageThrough();
    expect(rows).toBe(expected);
    expect(first).toMatchObject({ total: expected, pages: Math.ceil(expected / PER_PAGE), total_is_estimate: false });

    // Analyzed again, the estimate is back (flagged) and close.
    await analyzeTables(service.databases.live.sql, ['congressional_trades']);
    expect(await statisticsAreStale(service.databases.live.sql, 'congressional_trades')).toBe(false);
    const fresh = await service.get(LIST, key);
    expect(fresh.body.total_is_estimate).toBe(true);
    expect(Math.abs(fresh.body.total - expected)).toBeLessThanOrEqual(expected * 0.1);
  });
});

describe('stale statistics, detected from the catalogs on either engine', () => {
  it('never analyzed, analyzed, then grown past the threshold', async () => {
    const db = service.databases.live.sql;
    await sql(`CREATE TABLE stale_probe (id int PRIMARY KEY, day date)`);
    await sql(`ALTER TABLE stale_probe SET (autovacuum_enabled = false)`);
    await sql(`INSERT INTO stale_probe SELECT g, date '2020-01-01' + g % 2000 FROM generate_series(1, 20000) g`);
    expect(await statisticsAreStale(db, 'stale_probe')).toBe(true);
    await analyzeTables(db, ['stale_probe']);
    expect(await statisticsAreStale(db, 'stale_probe')).toBe(false);
    // 10 % more rows: within what autovacuum tolerates, still fresh.
    await sql(`INSERT INTO stale_probe SELECT g, date '2020-01-01' + g % 2000 FROM generate_series(20001, 22000) g`);
    expect(await statisticsAreStale(db, 'stale_probe')).toBe(false);
    await sql(`INSERT INTO stale_probe SELECT g, date '2020-01-01' + g % 2000 FROM generate_series(22001, 40000) g`);
    expect(await statisticsAreStale(db, 'stale_probe')).toBe(true);
    expect(await statisticsAreStale(db, 'no_such_table')).toBe(true);
    await sql(`DROP TABLE stale_probe`);
  });
});
