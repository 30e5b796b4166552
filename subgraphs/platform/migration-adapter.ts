import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * A driver adapter factory for the schema engine whose `executeScript` sends a migration file whole.
 * The adapters' own versions are unfit for migration files: @prisma/adapter-pg splits the script on every
 * `;` (so a semicolon in a comment, a string or a function body breaks it) and pglite-prisma-adapter does not
 * await its `exec` (so a failing migration is recorded as applied). PostgreSQL's simple-query protocol runs
 * a multi-statement script in one round trip, as Prisma's native engine does.
 */
export function wholeScriptFactory(
  factory: SqlMigrationAwareDriverAdapterFactory,
  run: (script: string) => Promise<unknown>,
): SqlMigrationAwareDriverAdapterFactory {
  const wrap = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    adapter.executeScript = async (script) => {
      await run(script);
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wrap(await factory.connect()),
    // Only `migrate --create` uses a shadow database, and it makes its own (prisma/migrate.ts).
    connectToShadowDb: () => Promise.reject(new Error('shadow databases are made by prisma/migrate.ts')),
  };
}

export function pgliteRunner(client: PGlite) {
  return (script: string) => client.exec(script);
}

/**
 * A connection of the migration engine's own. Prisma's engine takes `pg_advisory_lock` on whatever
 * connection runs its first query and never unlocks (the CLI's process exits instead), so it must not run on
 * the service's pool: there the lock would stay on a pooled connection for the life of the process.
 */
export interface MigrationSession {
  /** Driver adapters for the schema engine; every statement runs on this session's connection. */
  factory: SqlMigrationAwareDriverAdapterFactory;
  query<Row = Record<string, unknown>>(text: string): Promise<Row[]>;
  /** Ends the connection, and with it every session-level lock taken on it. */
  close(): Promise<void>;
}

/** PGlite has one connection and one process: the session is that connection, and closing it releases locks. */
export function pgliteMigrationSession(
  client: PGlite,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): MigrationSession {
  return {
    factory: wholeScriptFactory(adapterFactory, pgliteRunner(client)),
    query: async <Row>(text: string) => (await client.query<Row>(text)).rows,
    close: async () => {
      await client.query('SELECT pg_advisory_unlock_all()');
    },
  };
}

/** A pool of one connection (the adapter wants a pool), ended after use. No statement timeout: migrations may be long. */
export function postgresMigrationSession(url: string): MigrationSession {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  return {
    factory: wholeScriptFactory(new PrismaPg(pool), (script) => pool.query(script)),
    query: async <Row>(text: string) => (await pool.query(text)).rows as Row[],
    // The server ends a backend, and drops its locks, only some time after the socket closes: unlock first,
    // so no lock is seen once close() returns. A broken connection has nothing left to unlock.
    close: async () => {
      await pool.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
      await pool.end();
    },
  };
}
