import type { SqlClient } from '../../platform/database.ts';
import { isStale, SOURCE_SCHEDULES } from './catalog.ts';

/** How current one source is: `GET /api/stats/sources`, GraphQL `sources`, `ingest -- status`. */
export interface SourceStatus {
  source: string;
  cadence: string;
  last_attempt: Date | null;
  last_status: string | null;
  last_error: string | null;
  last_success: Date | null;
  newest_record: string | null;
  records: number | null;
  next_run: Date | null;
  stale: boolean;
}

/** Timestamps are stored in UTC without a zone (as Prisma writes them): printed as such. */
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * One row per source from the runs table (an index probe per source) and the jobs' next runs: the record
 * counts are those the last finished run measured, so this costs the same at 10M records as at 10.
 */
export async function sourceStatuses(sql: SqlClient, now = new Date()): Promise<SourceStatus[]> {
  const rows = await sql.query<{
    source: string;
    last_attempt: string | null;
    last_status: string | null;
    last_error: string | null;
    last_success: string | null;
    records: number | null;
    newest_record: string | null;
    next_run: string | null;
  }>(
    `SELECT s.source, to_char(attempt.started_at, ${ISO}) AS last_attempt, attempt.status AS last_status,
            attempt.error AS last_error, to_char(success.finished_at, ${ISO}) AS last_success, measured.records,
            to_char(measured.newest_record, 'YYYY-MM-DD') AS newest_record, to_char(j.next_run_at, ${ISO}) AS next_run
       FROM unnest($1::text[]) AS s(source)
       LEFT JOIN ingest_jobs j ON j.name = s.source
       LEFT JOIN LATERAL (SELECT started_at, status, error FROM source_runs r WHERE r.source = s.source
                           ORDER BY started_at DESC LIMIT 1) attempt ON true
       LEFT JOIN LATERAL (SELECT finished_at FROM source_runs r WHERE r.source = s.source
                             AND r.status IN ('succeeded', 'unchanged')
                           ORDER BY started_at DESC LIMIT 1) success ON true
       LEFT JOIN LATERAL (SELECT records, newest_record FROM source_runs r WHERE r.source = s.source
                             AND r.status <> 'running'
                           ORDER BY started_at DESC LIMIT 1) measured ON true`,
    [SOURCE_SCHEDULES.map((source) => source.name)],
  );
  return SOURCE_SCHEDULES.map((schedule) => {
    const row = rows.find((candidate) => candidate.source === schedule.name)!;
    const lastSuccess = row.last_success ? new Date(row.last_success) : null;
    return {
      source: schedule.name,
      cadence: schedule.cadence,
      last_attempt: row.last_attempt ? new Date(row.last_attempt) : null,
      last_status: row.last_status,
      last_error: row.last_error,
      last_success: lastSuccess,
      newest_record: row.newest_record,
      records: row.records,
      next_run: row.next_run ? new Date(row.next_run) : null,
      stale: isStale(schedule.cron, lastSuccess, now),
    };
  });
}

/** The newest successful run of any source: `/api/stats/public`'s `last_updated` once the service ingests. */
export const LAST_INGESTED_SQL = `(SELECT max(finished_at) FROM source_runs WHERE status IN ('succeeded', 'unchanged'))`;
