import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { env } from '../subgraphs/platform/config.ts';
import { logger } from '../subgraphs/platform/logger.ts';
import { ensurePortFree } from '../subgraphs/platform/process/listen.ts';
import { usesPglite } from '../subgraphs/platform/process/single-writer.ts';
import { parseCommandLine } from './command-line.ts';

/**
 * `npm run start:cluster -- [--workers N]`: N gateway processes (gateway/main.ts, unchanged) sharing one port on
 * one machine, through Node's cluster module: this primary holds the port and hands each new connection to a
 * worker in turn (round robin), so no load balancer process sits in the request path. PostgreSQL only (a PGlite
 * folder belongs to one process). docs/deployment.md "Several gateways on one machine".
 */
const USAGE = 'usage: npm run start:cluster -- [--workers N]   (default: one per CPU)';
const { values } = parseCommandLine(USAGE, {
  options: { workers: { type: 'string', default: String(availableParallelism()) } },
});
const workers = Number(values.workers);
if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  process.stderr.write(`--workers must be an integer from 1 to 64, got "${values.workers}"\n${USAGE}\n`);
  process.exit(2);
}
if (usesPglite()) {
  process.stderr.write(
    'start:cluster needs DATABASE_URL and SANDBOX_DATABASE_URL: a PGlite folder can be opened by one process only (use npm start).\n',
  );
  process.exit(2);
}
if (!env.REDIS_URL && workers > 1)
  logger.warn({ workers }, 'REDIS_URL is not set: each worker counts rate limits alone, so clients get N times them');

await ensurePortFree(env.PORT, env.HOST);
cluster.setupPrimary({ exec: join(import.meta.dirname, '../gateway/main.ts'), args: [] });
// Session tokens must verify on whichever worker a request reaches: one secret for all unless configured.
const workerEnv = { JWT_SECRETS: process.env.JWT_SECRETS ?? randomBytes(32).toString('hex') };

let stopping = false;
let exitCode = 0;
const listening = new Set<Worker>();

function fork(): Worker {
  const worker = cluster.fork(workerEnv);
  worker.once('listening', (address) => {
    listening.add(worker);
    // The first worker starts alone: it applies migrations, seeds an empty sandbox and saves the demo key, which
    // the others then find done instead of waiting on the same locks (and printing demo keys of their own).
    if (listening.size === 1 && Object.keys(cluster.workers ?? {}).length === 1)
      for (let index = 1; index < workers; index++) fork();
    if (listening.size === workers)
      process.stdout.write(
        `${workers} gateway ${workers === 1 ? 'process' : 'processes'} ready on port ${address.port}\n`,
      );
  });
  worker.once('exit', (code, signal) => {
    const started = listening.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    // A worker that never listened failed at start (configuration, database): more of them would fail alike.
    if (!started) {
      logger.error({ pid: worker.process.pid, code }, 'a gateway worker failed to start; stopping the others');
      stop('SIGTERM', code ?? 1);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'a gateway worker exited; starting another');
    fork();
  });
  return worker;
}

function stop(signal: NodeJS.Signals, code = 0) {
  stopping = true;
  exitCode = code;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
}

fork();
// SIGTERM (a supervisor stopping this process) goes on to every worker, which shuts down as gateway/main.ts does.
// Ctrl-C's SIGINT reaches the workers from the terminal already: a second one would cut their shutdown short.
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => {
  stopping = true;
});
