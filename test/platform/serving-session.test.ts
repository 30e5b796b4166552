import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

let store: TestDatabases;

beforeAll(async () => {
  store = await createTestDatabases();
});
afterAll(() => store?.drop());

const SETTINGS = `SELECT current_setting('jit') AS jit, pg_jit_available() AS available,
  current_setting('max_parallel_workers_per_gather') AS workers, current_setting('synchronize_seqscans') AS synchronized,
  current_setting('plan_cache_mode') AS planning`;
interface Settings {
  jit: string;
  available: boolean;
  workers: string;
  synchronized: string;
  planning: string;
}

describe('the serving connections', () => {
  // A server's defaults compiled a bounded count at 10M records and ran it on three processes (138 ms → 30 ms).
  // The search's capped scans must find the same candidates on every call, and its prepared statements be planned
  // for each query's words (subgraphs/verticals/search/query.ts).
  it('neither JIT-compile a statement, run it on parallel workers, synchronise its scans nor plan it generically', async () => {
    for (const db of Object.values(store.databases)) {
      for (let connection = 0; connection < 3; connection++) {
        const settings = [
          ...(await db.sql.query<Settings>(SETTINGS)),
          ...(await db.prisma.$queryRawUnsafe<Settings[]>(SETTINGS)),
        ];
        for (const { jit, available, workers, synchronized, planning } of settings) {
          expect(workers).toBe('0');
          // PostgreSQL is built with JIT here and must have it off; PGlite is built without it. PGlite's one
          // backend has no other scan to synchronise with.
          if (TEST_ENGINE === 'postgres') {
            expect(jit).toBe('off');
            expect(synchronized).toBe('off');
            expect(planning).toBe('force_custom_plan');
          } else expect(available).toBe(false);
        }
      }
    }
  });
});

describe('a serving transaction', () => {
  it('keeps its settings to itself and writes all or nothing', async () => {
    for (const db of Object.values(store.databases)) {
      const probe = `serving-transaction-${db.mode}`;
      const threshold = await db.servingTransaction(async (sql) => {
        await sql.query(`SELECT set_config('pg_trgm.word_similarity_threshold', '0.25', true)`);
        await sql.query(`INSERT INTO search_words (word) VALUES ($1)`, [probe]);
        return (
          await sql.query<{ value: string }>(`SELECT current_setting('pg_trgm.word_similarity_threshold') AS value`)
        )[0]!.value;
      });
      expect(threshold).toBe('0.25');
      // Back in the pool (which hands the idle connection out again), the connection has the session's value.
      for (let connection = 0; connection < 3; connection++) {
        const [after] = await db.sql.query<{ value: string }>(
          `SELECT current_setting('pg_trgm.word_similarity_threshold') AS value`,
        );
        expect(after!.value).not.toBe('0.25');
      }

      const failed = db.servingTransaction(async (sql) => {
        await sql.query(`DELETE FROM search_words WHERE word = $1`, [probe]);
        await sql.query(`SELECT 1 / 0`);
      });
      await expect(failed).rejects.toThrow(/division by zero/);
      const kept = await db.sql.query(`SELECT word FROM search_words WHERE word = $1`, [probe]);
      expect(kept).toHaveLength(1);
      await db.sql.query(`DELETE FROM search_words WHERE word = $1`, [probe]);
    }
  });
});
