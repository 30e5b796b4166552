import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

let store: TestDatabases;

beforeAll(async () => {
  store = await createTestDatabases();
});
afterAll(() => store?.drop());

describe('migration scripts', () => {
  it('run whole: semicolons in comments, strings and function bodies do not split them', async () => {
    const session = store.databases.live.openMigrationSession();
    const adapter = await session.factory.connect();
    await adapter.executeScript(`-- a comment; with a semicolon
      CREATE FUNCTION probe_semicolons() RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'a;b' $$;
      CREATE TABLE probe_table (note text DEFAULT 'x;y');`);
    await session.close();
    const [row] = await store.databases.live.sql.query<{ value: string }>('SELECT probe_semicolons() AS value');
    expect(row!.value).toBe('a;b');
  });

  it('fail loudly when a statement fails, so a broken migration is never recorded as applied', async () => {
    const session = store.databases.live.openMigrationSession();
    const adapter = await session.factory.connect();
    await expect(adapter.executeScript('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    await session.close();
  });
});
