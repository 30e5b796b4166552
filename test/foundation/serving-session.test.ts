import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

let store: TestDatabases;

beforeAll(async () => {
  store = await createTestDatabases();
});
afterAll(() => store?.drop());

const SETTINGS = `SELECT current_setting('jit') AS jit, pg_jit_available() AS available,
  current_setting('max_parallel_workers_per_gather') AS workers`;
interface Settings {
  jit: string;
  available: boolean;
  workers: string;
}

describe('the serving connections', () => {
  // A server's defaults compiled a bounded count at 10M records and ran it on three processes (138 ms → 30 ms).
  it('neither JIT-compile a statement nor run it on parallel workers, whichever client sends it', async () => {
    for (const db of Object.values(store.databases)) {
      for (let connection = 0; connection < 3; connection++) {
        const settings = [
          ...(await db.sql.query<Settings>(SETTINGS)),
          ...(await db.prisma.$queryRawUnsafe<Settings[]>(SETTINGS)),
        ];
        for (const { jit, available, workers } of settings) {
          expect(workers).toBe('0');
          // PostgreSQL is built with JIT here and must have it off; PGlite is built without it.
          if (TEST_ENGINE === 'postgres') expect(jit).toBe('off');
          else expect(available).toBe(false);
        }
      }
    }
  });
});
