import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { sourceStatuses } from '../../subgraphs/index.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { logger } from '../../subgraphs/platform/logger.ts';

/**
 * Live ingestion's state (docs/data-sources.md "Live ingestion"), read from the live database when scraped, so
 * every gateway reports the runs of all of them: runs by source and status (failures are `status="failed"`),
 * each source's staleness and the time of its last success.
 */
export function registerIngestMetrics(registry: Registry, live: Database): void {
  const failed = (error: unknown) => logger.warn({ err: error }, 'metrics: ingestion state unavailable');
  new Gauge({
    name: 'ingest_runs',
    help: 'Ingestion runs recorded in the live database, by source and status (running, succeeded, unchanged, failed).',
    labelNames: ['source', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const rows = await live.sql.query<{ source: string; status: string; runs: number }>(
          'SELECT source, status, count(*)::int AS runs FROM source_runs GROUP BY 1, 2',
        );
        for (const row of rows) this.set({ source: row.source, status: row.status }, row.runs);
      } catch (error) {
        failed(error);
      }
    },
  });
  new Gauge({
    name: 'ingest_source_stale',
    help: '1 when a source has missed two scheduled runs since its last success (or never succeeded), else 0.',
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const status of await sourceStatuses(live.sql)) this.set({ source: status.source }, status.stale ? 1 : 0);
      } catch (error) {
        failed(error);
      }
    },
  });
  new Gauge({
    name: 'ingest_source_last_success_seconds',
    help: 'Unix time of the last successful run of each source (absent when none).',
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const status of await sourceStatuses(live.sql)) {
          if (status.last_success) this.set({ source: status.source }, status.last_success.getTime() / 1000);
        }
      } catch (error) {
        failed(error);
      }
    },
  });
}
