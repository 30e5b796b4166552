import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

let store: TestDatabases;

beforeAll(async () => {
  store = await createTestDatabases();
});
afterAll(() => store?.drop());

const JIT = "SELECT current_setting('jit') AS jit, pg_jit_available() AS available";

describe('the serving connections', () => {
  // A server's default (jit = on) compiled bounded statements: 20-25 ms of a 40 ms count at 10M records.
  it('never JIT-compile a statement, whichever client sends it', async () => {
    for (const db of Object.values(store.databases)) {
      for (let connection = 0; connection < 3; connection++) {
        const settings = [
          ...(await db.sql.query<{ jit: string; available: boolean }>(JIT)),
          ...(await db.prisma.$queryRawUnsafe<{ jit: string; available: boolean }[]>(JIT)),
        ];
        for (const { jit, available } of settings) {
          // PostgreSQL is built with JIT here and must have it off; PGlite is built without it.
          if (TEST_ENGINE === 'postgres') expect(jit).toBe('off');
          else expect(available).toBe(false);
        }
      }
    }
  });
});
