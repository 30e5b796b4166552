import type { FastifyInstance } from 'fastify';
import type { Database, Mode } from '../database.ts';
import { logger } from '../logger.ts';
import type { AdminSocket } from './admin-socket.ts';
import type { DataDirLock } from './data-dir-lock.ts';

export interface ShutdownParts {
  app: FastifyInstance;
  databases: Record<Mode, Database>;
  adminSocket?: AdminSocket;
  lock?: DataDirLock;
  /** How long in-flight requests and admin commands may run on before their connections are cut (SHUTDOWN_GRACE_MS). */
  graceMs: number;
}

/** After the grace period, closing gets this long more before the process exits regardless, with code 1. */
const HARD_STOP_AFTER_GRACE_MS = 5_000;

/**
 * SIGTERM and SIGINT close the process cleanly and exit 0: no new connections or admin commands; requests and
 * commands under way finish (cut after the grace period); `app.close()` then hands report jobs under way back
 * to the queue (report worker, preClose), waits for the HTTP server, and writes the usage counts held in
 * memory (usage meter, onClose); then the databases close and DATA_DIR's lock goes. A second signal exits at once.
 */
export function closeOnSignals(parts: ShutdownParts): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) {
        logger.warn({ signal }, 'second signal: exiting without finishing the shutdown');
        process.exit(1);
      }
      closing = true;
      logger.info({ signal, graceMs: parts.graceMs }, 'shutting down');
      void shutDown(parts).then((code) => process.exit(code));
    });
  }
}

async function shutDown({ app, databases, adminSocket, lock, graceMs }: ShutdownParts): Promise<number> {
  const grace = setTimeout(() => {
    logger.warn('grace period over: cutting the connections still open');
    app.server.closeAllConnections();
    adminSocket?.abort();
  }, graceMs);
  const hardStop = setTimeout(() => {
    logger.error('shutdown did not finish: exiting');
    lock?.release();
    process.exit(1);
  }, graceMs + HARD_STOP_AFTER_GRACE_MS);
  let code = 0;
  const failed = (step: string) => (error: unknown) => {
    logger.error({ err: error }, `shutdown: ${step} failed`);
    code = 1;
  };
  await Promise.all([adminSocket?.close().catch(failed('admin socket')), app.close().catch(failed('server close'))]);
  await Promise.all(
    Object.values(databases).map((database) => database.close().catch(failed(`closing the ${database.mode} database`))),
  );
  clearTimeout(grace);
  clearTimeout(hardStop);
  lock?.release();
  logger.info({ code }, 'shut down');
  return code;
}
