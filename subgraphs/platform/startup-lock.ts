import type { Database } from './database.ts';
import { logger } from './logger.ts';
import type { MigrationSession } from './migration-adapter.ts';

/** Start-up work that several processes on one database must do one at a time. */
export interface StartupLock {
  /** A PostgreSQL advisory lock key. */
  key: number;
  /** What the lock guards, for the log line of a process that has to wait. */
  purpose: string;
}

// Prisma's own key: a `prisma migrate` run by hand waits for us, and we for it.
export const MIGRATIONS_LOCK: StartupLock = { key: 72707369, purpose: 'migrations' };
export const SEED_LOCK: StartupLock = { key: 72707370, purpose: 'the sandbox seed' };

/**
 * Runs `work` holding `lock` on a connection of its own, which is closed afterwards, so the lock never
 * outlives the work. A second process waits for the first instead of failing; it logs once that it waits.
 */
export async function withStartupLock<T>(
  database: Database,
  lock: StartupLock,
  work: (session: MigrationSession) => Promise<T>,
): Promise<T> {
  const session = database.openMigrationSession();
  try {
    const [row] = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${lock.key}) AS locked`);
    if (!row?.locked) {
      logger.info({ database: database.mode }, `waiting for another process to finish ${lock.purpose}`);
      await session.query(`SELECT pg_advisory_lock(${lock.key})`);
    }
    return await work(session);
  } finally {
    await session.close();
  }
}
