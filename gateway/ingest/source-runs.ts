import type { SourceSchedule } from '../../subgraphs/data-loading.ts';
import type { SqlClient } from '../../subgraphs/platform/database.ts';
import type { Validators } from './http/polite-client.ts';

/** A file a run asked for: 200 (fetched, stored by content hash) or 304 (unchanged since the last good run). */
export interface FetchedFile {
  url: string;
  name: string;
  httpStatus: 200 | 304;
  bytes: number;
  sha256?: string;
  /** Where the download is kept (content-addressed), and what to send next time: not stored in the run row. */
  path?: string;
  validators?: Validators;
}

export type RunStatus = 'succeeded' | 'unchanged' | 'failed';

/** A finished run, as `ingest -- run` prints it and `source_runs` keeps it. */
export interface RunOutcome {
  run: number;
  source: string;
  status: RunStatus;
  http_status: number | null;
  requests: number;
  bytes: number;
  counts: unknown;
  rejected: number;
  error: string | null;
  records: number;
  newest_record: string | null;
  seconds: number;
}

export async function startRun(sql: SqlClient, source: string, trigger: string, holder: string): Promise<number> {
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO source_runs (source, trigger, status, holder) VALUES ($1, $2, 'running', $3) RETURNING id::text`,
    [source, trigger, holder],
  );
  return Number(row!.id);
}

/** Ends a run: its files, the importer's counts, and the source's records as they now stand. */
export async function finishRun(
  sql: SqlClient,
  runId: number,
  schedule: SourceSchedule,
  result: { status: RunStatus; fetched: FetchedFile[]; counts?: unknown; httpStatus?: number; error: string | null },
): Promise<RunOutcome> {
  const counts = result.counts as { rejected?: number } | undefined;
  const rejected = Object.values((counts ?? {}) as Record<string, unknown>).reduce<number>(
    (sum, value) => sum + (value && typeof value === 'object' && 'rejected' in value ? Number(value.rejected) : 0),
    typeof counts?.rejected === 'number' ? counts.rejected : 0,
  );
  const httpStatus = result.httpStatus ?? result.fetched.at(-1)?.httpStatus ?? null;
  const files = result.fetched.map(({ url, name, httpStatus, bytes, sha256 }) => ({
    url,
    name,
    httpStatus,
    bytes,
    sha256,
  }));
  const [row] = await sql.query<{ seconds: number; records: number; newest_record: string | null }>(
    `WITH source_records AS (
       SELECT count(*)::int AS records, ${schedule.records.date ? `to_char(max(${schedule.records.date}), 'YYYY-MM-DD')` : 'NULL::text'} AS newest
         FROM ${schedule.records.from}
     )
     UPDATE source_runs SET status = $2, finished_at = now(), http_status = $3, requests = $4, bytes = $5,
            files = $6::jsonb, counts = $7::jsonb, rejected = $8, error = $9,
            records = (SELECT records FROM source_records), newest_record = (SELECT newest FROM source_records)::date
      WHERE id = $1
      RETURNING extract(epoch FROM finished_at - started_at)::float8 AS seconds, records,
                to_char(newest_record, 'YYYY-MM-DD') AS newest_record`,
    [
      runId,
      result.status,
      httpStatus,
      result.fetched.length,
      result.fetched.reduce((sum, file) => sum + file.bytes, 0),
      JSON.stringify(files),
      result.counts === undefined ? null : JSON.stringify(result.counts),
      rejected,
      result.error,
    ],
  );
  return {
    run: runId,
    source: schedule.name,
    status: result.status,
    http_status: httpStatus,
    requests: result.fetched.length,
    bytes: result.fetched.reduce((sum, file) => sum + file.bytes, 0),
    counts: result.counts ?? null,
    rejected,
    error: result.error,
    records: row!.records,
    newest_record: row!.newest_record,
    seconds: Math.round(row!.seconds * 10) / 10,
  };
}
