import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_ROLLUPS, refreshMarketRollups } from '../../subgraphs/markets/rollups.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

let store: TestDatabases;

beforeAll(async () => {
  store = await createTestDatabases({ sandboxScale: 30 });
});
afterAll(() => store?.drop());

const rowsOf = async (view: string) => {
  const [row] = await store.databases.sandbox.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${view}"`);
  return row!.n;
};

describe('the market rollups', () => {
  it('are the materialized views named market_*, as MARKET_ROLLUPS lists them', async () => {
    const views = await store.databases.sandbox.sql.query<{ name: string }>(
      `SELECT matviewname AS name FROM pg_matviews WHERE schemaname = current_schema() ORDER BY 1`,
    );
    expect(views.map((view) => view.name)).toEqual([...MARKET_ROLLUPS].sort());
  });

  it('are every one recomputed by one refresh', async () => {
    for (const view of MARKET_ROLLUPS) expect(await rowsOf(view), view).toBeGreaterThan(0);
    const db = store.databases.sandbox;
    // Every rollup is of signals or congressional trades: without them, each one is empty once refreshed.
    await db.sql.query('UPDATE congressional_trades SET superseded_by_id = NULL');
    await db.sql.query('DELETE FROM congressional_trades');
    await db.sql.query('DELETE FROM signals');
    await refreshMarketRollups(db);
    for (const view of MARKET_ROLLUPS) expect(await rowsOf(view), view).toBe(0);
  });
});
