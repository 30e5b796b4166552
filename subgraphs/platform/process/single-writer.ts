import { env } from '../config.ts';
import type { Database, Mode } from '../database.ts';
import { startAdminSocket } from './admin-socket.ts';
import type { AdminSocket } from './admin-socket.ts';
import type { CommandTools } from './command-tool.ts';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.ts';
import type { DataDirLock, LockRole } from './data-dir-lock.ts';

/** Whether a database of this configuration is PGlite under DATA_DIR (one process per folder). */
export const usesPglite = () => !env.DATABASE_URL || !env.SANDBOX_DATABASE_URL;

/**
 * For a server about to open its databases: DATA_DIR's lock when a database is PGlite (none on PostgreSQL,
 * where several servers share DATA_DIR's report files). When another process holds the folder, prints one
 * line and exits with code 2. The lock goes with the process, however it exits.
 */
export function lockDataDirOrExit(role: LockRole): DataDirLock | undefined {
  if (!usesPglite()) return undefined;
  try {
    const lock = acquireDataDirLock(env.dataDir, role);
    process.once('exit', () => lock.release());
    return lock;
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    process.stderr.write(`${error.message}. Stop it first, or give this ${role} another DATA_DIR.\n`);
    process.exit(2);
  }
}

/** Once the server listens: takes the `tools`' commands on the admin socket and names it in the lock. */
export async function serveAdminCommands(
  lock: DataDirLock | undefined,
  databases: Record<Mode, Database>,
  tools: CommandTools,
): Promise<AdminSocket | undefined> {
  if (!lock) return undefined;
  const socket = await startAdminSocket(env.dataDir, databases, tools);
  if (socket) lock.setSocket(socket.path);
  return socket;
}
