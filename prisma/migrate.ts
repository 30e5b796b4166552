import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Database } from '../subgraphs/platform/database.ts';
import { pgliteRunner, wholeScriptFactory } from '../subgraphs/platform/migration-adapter.ts';
import { MIGRATIONS_LOCK, withStartupLock } from '../subgraphs/platform/startup-lock.ts';
import { pendingMigrations } from './pending-migrations.ts';
import { MIGRATIONS_DIR, NO_FILTER, SCHEMA_PATH, createSchemaEngine, readMigrations } from './schema-engine.ts';

/**
 * Applies every migration in prisma/migrations not yet recorded in `_prisma_migrations`. Idempotent. When all
 * are recorded the engine is not started at all; otherwise it runs holding the migrations lock on a connection
 * of its own, closed afterwards, so concurrent starters wait for each other and no lock outlives the run.
 */
export async function applyMigrations(database: Database): Promise<string[]> {
  const migrationsList = await readMigrations();
  if ((await pendingMigrations(database, migrationsList)).length === 0) return [];
  return withStartupLock(database, MIGRATIONS_LOCK, async (session) => {
    const engine = await createSchemaEngine(session.factory);
    try {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
      return appliedMigrationNames;
    } finally {
      engine.free();
    }
  });
}

/**
 * Writes prisma/migrations/<timestamp>_<name>/migration.sql with the SQL that takes the migrations folder to
 * schema.prisma. The history is replayed on an in-memory PGlite (the shadow database), so no server is needed.
 * Returns null when the schema and the migrations already agree.
 */
export async function createMigration(name: string): Promise<string | null> {
  // The shadow database needs the same extensions as the real ones, which the adapter's own default lacks.
  const shadow = await PGlite.create({ extensions: { pg_trgm, unaccent, fuzzystrmatch } });
  const shadowFactory = wholeScriptFactory(new PrismaPGlite(shadow), pgliteRunner(shadow));
  shadowFactory.connectToShadowDb = () => shadowFactory.connect();
  const engine = await createSchemaEngine(shadowFactory);
  try {
    const { stdout } = await engine.diff({
      from: { tag: 'migrations', ...(await readMigrations()) },
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, 'utf8') }] },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    const sql = stdout?.trim() ?? '';
    if (sql === '' || sql === '-- This is an empty migration.') return null;
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const directory = join(MIGRATIONS_DIR, `${stamp}_${name.replace(/\W+/g, '_')}`);
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'migration.sql'), `${sql}\n`);
    return directory;
  } finally {
    engine.free();
  }
}
