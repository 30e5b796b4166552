import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { env } from '../../platform/config.ts';
import type { Database, Mode } from '../../platform/database.ts';
import { logger } from '../../platform/logger.ts';
import { runWhileListening } from '../../platform/process/while-listening.ts';
import type { BackgroundWorker } from '../../platform/process/while-listening.ts';
import { exportReport } from './export.ts';
import { MAX_ATTEMPTS, claimJob, completeJob, failJob, heartbeat, onJobQueued, releaseJob } from './queue.ts';

export interface ReportWorkerOptions {
  databases: Record<Mode, Database>;
  /** DATA_DIR: files go to DATA_DIR/reports/<mode>/rpt_<id>.<format>. */
  dataDir: string;
  /** How often an idle worker looks for jobs (it is also woken when this process queues one). */
  pollMs?: number;
  /** A processing job whose heartbeat is older than this is taken to have lost its worker, and is retried. */
  staleAfterMs?: number;
  /** Rows per page (REPORT_BATCH_SIZE unless given). */
  batchSize?: number;
}

export const reportsDirectory = (dataDir: string) => join(dataDir, 'reports');

const wait = (ms: number, wake: { resolve?: () => void }) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake.resolve = () => {
      clearTimeout(timer);
      resolve();
    };
  });

/** One loop per database: claim a job, export it, repeat; sleep when the queue is empty. */
export function startReportWorker(options: ReportWorkerOptions): BackgroundWorker {
  const pollMs = options.pollMs ?? 1000;
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const reportsDir = reportsDirectory(options.dataDir);
  let running = true;
  const wakers: { resolve?: () => void }[] = [];
  const unsubscribe = onJobQueued(() => wakers.forEach((waker) => waker.resolve?.()));

  async function runOne(db: Database): Promise<boolean> {
    const job = await claimJob(db, staleAfterMs);
    if (!job) return false;
    const log = logger.child({ report: job.id, database: db.mode, attempt: job.attempts });
    if (job.attempts > MAX_ATTEMPTS) {
      await failJob(db, job, `The report was interrupted ${MAX_ATTEMPTS} times.`);
      return true;
    }
    let stopped = false;
    try {
      const result = await exportReport(db, job, {
        reportsDir,
        batchSize: options.batchSize ?? env.REPORT_BATCH_SIZE,
        onBatch: async (rows, total) => {
          if (!running) {
            stopped = true;
            return false;
          }
          const progress = total === 0 ? 100 : Math.min(99, Math.floor((rows / total) * 100));
          return heartbeat(db, job, progress, rows);
        },
      });
      if (stopped) await releaseJob(db, job);
      else if (result) await completeJob(db, job, result.rows, result.file);
      else log.warn('report job was taken over by another worker');
    } catch (error) {
      log.error({ err: error }, 'report job failed');
      await failJob(db, job, 'The report could not be generated.');
    }
    return true;
  }

  async function loop(db: Database) {
    const waker: { resolve?: () => void } = {};
    wakers.push(waker);
    while (running) {
      let worked = false;
      try {
        worked = await runOne(db);
      } catch (error) {
        // The database may be briefly unreachable; the next poll tries again.
        logger.error({ err: error, database: db.mode }, 'report worker could not claim a job');
      }
      if (!worked && running) await wait(pollMs, waker);
    }
  }

  const loops = Object.values(options.databases).map((db) => loop(db));
  return {
    async stop() {
      running = false;
      unsubscribe();
      wakers.forEach((waker) => waker.resolve?.());
      await Promise.all(loops);
    },
  };
}

/** Runs the workers while the server listens: started by `listen`, stopped (jobs handed back) by `close`. */
export function attachReportWorker(app: FastifyInstance, options: ReportWorkerOptions): void {
  runWhileListening(app, () => startReportWorker(options));
}
