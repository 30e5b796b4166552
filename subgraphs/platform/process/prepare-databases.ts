import { applyMigrations } from '../../../prisma/migrate.ts';
import { env } from '../config.ts';
import { openConfiguredDatabases } from '../database.ts';
import type { Database, Mode } from '../database.ts';
import { logger } from '../logger.ts';
import { SEED_LOCK, withStartupLock } from '../startup-lock.ts';

/**
 * The sandbox generator (prisma/seed/index.ts), given by the process's entry: it writes every vertical's and
 * the markets' tables, which this layer does not know.
 */
export interface SandboxSeed {
  isSeeded(database: Database): Promise<boolean>;
  seedDatabase(database: Database, options: { scale: number }): Promise<unknown>;
}

/** Opens both databases, applies pending migrations, and fills an empty sandbox with generated data. */
export async function prepareDatabases({ isSeeded, seedDatabase }: SandboxSeed): Promise<Record<Mode, Database>> {
  const databases = await openConfiguredDatabases();
  for (const database of Object.values(databases)) {
    const applied = await applyMigrations(database);
    if (applied.length) logger.info({ database: database.mode, applied }, 'applied migrations');
  }
  if (!(await isSeeded(databases.sandbox))) {
    // Processes starting together on an empty sandbox: one seeds, the others wait and then find it seeded.
    await withStartupLock(databases.sandbox, SEED_LOCK, async () => {
      if (await isSeeded(databases.sandbox)) return;
      logger.info({ scale: env.SANDBOX_SEED_SCALE }, 'seeding the sandbox database (first start)');
      const summary = await seedDatabase(databases.sandbox, { scale: env.SANDBOX_SEED_SCALE });
      logger.info({ summary }, 'sandbox seeded');
    });
  }
  return databases;
}
