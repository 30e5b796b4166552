import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../prisma/migrate.ts';
import { readMigrations } from '../../prisma/schema-engine.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { databaseUrl } from '../support/templates.ts';

const advisoryLocks = async (database: Database) =>
  Number(
    (
      await database.sql.query<{ count: string }>(
        "SELECT count(*) AS count FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      )
    )[0]!.count,
  );

describe('migrations on an up-to-date database', () => {
  let store: TestDatabases;
  beforeAll(async () => {
    store = await createTestDatabases();
  });
  afterAll(() => store?.drop());

  it('apply nothing and leave no lock behind', async () => {
    expect(await applyMigrations(store.databases.live)).toEqual([]);
    expect(await advisoryLocks(store.databases.live)).toBe(0);
  });
});

// Several processes on one database exist only on a PostgreSQL server (a PGlite folder has one process).
if (TEST_ENGINE === 'postgres') {
  describe('migrations run by several processes at once on PostgreSQL', () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const name = `migration_lock_${randomBytes(4).toString('hex')}`;
    const opened: Database[] = [];
    const open = async () => {
      const database = await openDatabase({ mode: 'live', url: databaseUrl(serverUrl, name) });
      opened.push(database);
      return database;
    };
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    beforeAll(() => admin(`CREATE DATABASE ${name}`));
    afterAll(async () => {
      await Promise.all(opened.map((database) => database.close()));
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it('wait for each other, apply each migration once, and hold no lock once done', async () => {
      const everything = (await readMigrations()).migrationDirectories.map((directory) => directory.path);
      const [first, second] = await Promise.all([open(), open()]);
      const results = await Promise.all([applyMigrations(first!), applyMigrations(second!)]);
      expect(results.flat().sort()).toEqual(everything);
      // The processes stay up (their pools open), yet nothing is locked: a later `npm run migrate` goes through.
      expect(await advisoryLocks(first!)).toBe(0);
      expect(await applyMigrations(await open())).toEqual([]);
    });
  });
}
