import type { Logger } from 'pino';
import { BRIEFING_SCHEDULE, nextScheduledRun, SOURCE_SCHEDULES } from '../../subgraphs/data-loading.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { claimJob } from './job-lease.ts';
import { publishScheduledBriefing } from './briefing-job.ts';
import { runSource } from './run-source.ts';
import type { SourceRunOptions } from './run-source.ts';

export interface ScheduleOptions extends Omit<SourceRunOptions, 'trigger' | 'now' | 'progress'> {
  pollMs: number;
  /** The sources to run (INGEST_SOURCES); every one when absent. */
  sources?: readonly string[];
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * The ingestion schedule of one process (INGEST_SCHEDULE=on, in every gateway): every `pollMs` it claims each
 * due job in catalog order (members before the trades they attribute, the briefing last) and runs it; a job
 * another process holds is skipped, so each runs once across the processes. Jobs run one after another in a
 * process: a source's fetches are paced per host anyway, and imports compete for the same database.
 */
export function startIngestSchedule(db: Database, options: ScheduleOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();

  const runDueJobs = async () => {
    const sources = SOURCE_SCHEDULES.filter((source) => !options.sources || options.sources.includes(source.name));
    for (const job of [...sources, BRIEFING_SCHEDULE]) {
      if (stopped) return;
      const lease = await claimJob(db.sql, job.name, { dueOnly: true });
      if (!lease) continue;
      try {
        if (job.name === BRIEFING_SCHEDULE.name) {
          const published = await publishScheduledBriefing(db, new Date());
          options.logger.info({ job: job.name, ...published }, 'ingest: briefing');
        } else {
          const outcome = await runSource(db, job.name, {
            ...options,
            trigger: 'schedule',
            progress: (message) => options.logger.info({ job: job.name }, message),
          });
          const log = outcome.status === 'failed' ? options.logger.warn : options.logger.info;
          log.call(options.logger, { ...outcome, job: job.name }, `ingest: ${job.name} ${outcome.status}`);
        }
      } catch (error) {
        options.logger.error({ job: job.name, err: error }, 'ingest: job failed');
      } finally {
        await lease.release(nextScheduledRun(job.cron, new Date())).catch(() => undefined);
      }
    }
  };

  const tick = () => {
    pass = runDueJobs()
      .catch((error: unknown) => options.logger.error({ err: error }, 'ingest: schedule pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.pollMs);
      });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
