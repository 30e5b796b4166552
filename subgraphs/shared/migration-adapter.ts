import type { PGlite } from '@electric-sql/pglite';
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
