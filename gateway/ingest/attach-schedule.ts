import type { FastifyInstance } from 'fastify';
import type { PoliteClientOptions } from './http/polite-client.ts';
import { env } from '../../subgraphs/platform/config.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import { runWhileListening } from '../../subgraphs/platform/process/while-listening.ts';

export interface IngestScheduleOptions {
  /** INGEST_SCHEDULE=on unless given. */
  enabled?: boolean;
  pollMs?: number;
  /** The sources it runs (INGEST_SOURCES, else all). */
  sources?: string[];
  /** Where the sources' URLs come from (INGEST_<SOURCE>_URL); the process's environment unless given. */
  environment?: NodeJS.ProcessEnv;
  /** The fetcher's settings beyond INGEST_*, and its folders (tests put them in a temporary folder). */
  client?: Partial<PoliteClientOptions>;
  workDir?: string;
}

/**
 * Runs the ingestion schedule (gateway/ingest/schedule.ts) on the live database while the app listens, when it
 * is on. Loaded only then, so a gateway without it does not load the importers.
 */
export function attachIngestSchedule(app: FastifyInstance, live: Database, options: IngestScheduleOptions = {}): void {
  if (!(options.enabled ?? env.INGEST_SCHEDULE === 'on')) return;
  runWhileListening(app, () => {
    const started = (async () => {
      const [{ startIngestSchedule }, { ingestClient, INGEST_WORK_DIR }] = await Promise.all([
        import('./schedule.ts'),
        import('./ingest-client.ts'),
      ]);
      return startIngestSchedule(live, {
        client: ingestClient(options.client),
        workDir: options.workDir ?? INGEST_WORK_DIR,
        environment: options.environment,
        form4PerRun: env.INGEST_FORM4_PER_RUN,
        pollMs: options.pollMs ?? env.INGEST_POLL_MS,
        sources: options.sources ?? env.INGEST_SOURCES?.split(',').map((name) => name.trim()),
        logger: logger.child({ component: 'ingest' }),
      });
    })();
    return { stop: async () => (await started).stop() };
  });
}
