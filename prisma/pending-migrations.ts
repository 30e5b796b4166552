import type { MigrationList } from '@prisma/schema-engine-wasm';
import type { Database } from '../subgraphs/platform/database.ts';

/**
 * The migration folders not yet recorded as applied. A failed or rolled-back record counts as pending, so the
 * engine sees it and reports it as it would.
 */
export async function pendingMigrations(database: Database, migrations: MigrationList): Promise<string[]> {
  const [table] = await database.sql.query<{ exists: boolean }>(
    "SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS exists",
  );
  const applied = new Set(
    table?.exists
      ? (
          await database.sql.query<{ migration_name: string }>(
            'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
          )
        ).map((row) => row.migration_name)
      : [],
  );
  return migrations.migrationDirectories.map((directory) => directory.path).filter((name) => !applied.has(name));
}
