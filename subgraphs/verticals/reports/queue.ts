import { EventEmitter } from 'node:events';
import type { Database } from '../../platform/database.ts';
import { reportFinishedEvents } from './events.ts';

/**
 * The report job queue is the report_jobs table. Workers claim with `FOR UPDATE SKIP LOCKED`, so workers in
 * several processes never take the same job; a claim bumps `attempts`, and every later write names the
 * attempt it belongs to, so a worker that lost its job (it stalled and another reclaimed it) changes nothing.
 */
export interface ClaimedJob {
  id: number;
  accountId: string;
  recordType: string;
  filters: Record<string, unknown>;
  format: 'csv' | 'json';
  fields: string[];
  attempts: number;
}

/** A job that died with its worker this many times is failed rather than retried forever. */
export const MAX_ATTEMPTS = 3;

const events = new EventEmitter();
events.setMaxListeners(0);

/** Wakes this process's idle workers at once instead of at their next poll. */
export function notifyJobQueued(): void {
  events.emit('queued');
}

export function onJobQueued(listener: () => void): () => void {
  events.on('queued', listener);
  return () => events.off('queued', listener);
}

/** The oldest queued job, or a processing one whose heartbeat is older than `staleAfterMs` (its worker died). */
export async function claimJob(db: Database, staleAfterMs: number): Promise<ClaimedJob | undefined> {
  const [row] = await db.sql.query<{
    id: number;
    account_id: string;
    record_type: string;
    filters: Record<string, unknown> | string;
    format: 'csv' | 'json';
    fields: string[];
    attempts: number;
  }>(
    `UPDATE report_jobs SET status = 'processing', attempts = attempts + 1, started_at = now(), heartbeat_at = now(),
       progress = 0, row_count = 0, error = NULL
     WHERE id = (
       SELECT id FROM report_jobs
       WHERE status = 'queued'
          OR (status = 'processing' AND heartbeat_at < now() - make_interval(secs => $1::float8 / 1000))
       ORDER BY created_at, id
       LIMIT 1
       FOR UPDATE SKIP LOCKED)
     RETURNING id, account_id, record_type, filters, format, fields, attempts`,
    [staleAfterMs],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    recordType: row.record_type,
    filters: typeof row.filters === 'string' ? JSON.parse(row.filters) : row.filters,
    format: row.format,
    fields: row.fields,
    attempts: row.attempts,
  };
}

/** Records progress and proves the worker alive; false when the job is no longer this attempt's. */
export async function heartbeat(db: Database, job: ClaimedJob, progress: number, rows: number): Promise<boolean> {
  const updated = await db.sql.query(
    `UPDATE report_jobs SET heartbeat_at = now(), progress = $3, row_count = $4
     WHERE id = $1 AND attempts = $2 AND status = 'processing' RETURNING id`,
    [job.id, job.attempts, progress, rows],
  );
  return updated.length > 0;
}

export async function completeJob(db: Database, job: ClaimedJob, rows: number, filePath: string): Promise<boolean> {
  // The job and its report.completed event in one statement (the webhook outbox).
  const updated = await db.sql.query(
    `WITH done AS (
       UPDATE report_jobs SET status = 'completed', progress = 100, row_count = $3, file_path = $4,
         completed_at = now(), heartbeat_at = now()
       WHERE id = $1 AND attempts = $2 AND status = 'processing' RETURNING *),
     ${reportFinishedEvents('report.completed')}
     SELECT id FROM done`,
    [job.id, job.attempts, rows, filePath],
  );
  return updated.length > 0;
}

export async function failJob(db: Database, job: Pick<ClaimedJob, 'id' | 'attempts'>, message: string): Promise<void> {
  await db.sql.query(
    `WITH done AS (
       UPDATE report_jobs SET status = 'failed', error = $3, completed_at = now()
       WHERE id = $1 AND attempts = $2 AND status = 'processing' RETURNING *),
     ${reportFinishedEvents('report.failed')}
     SELECT id FROM done`,
    [job.id, job.attempts, message],
  );
}

/** Hands a job back to the queue (a worker shutting down cleanly), so the next start takes it at once. */
export async function releaseJob(db: Database, job: ClaimedJob): Promise<void> {
  await db.sql.query(
    `UPDATE report_jobs SET status = 'queued', attempts = attempts - 1, heartbeat_at = NULL, progress = 0, row_count = 0
     WHERE id = $1 AND attempts = $2 AND status = 'processing'`,
    [job.id, job.attempts],
  );
}

/**
 * Fails the account's queued and running jobs with `reason` (its plan no longer reaches reports, or it is
 * disabled), so none is run or finished after this commits: a running one's worker sees its next heartbeat
 * refused and stops. The number failed.
 */
export async function cancelAccountJobs(db: Database, accountId: string, reason: string): Promise<number> {
  const rows = await db.sql.query(
    `WITH done AS (
       UPDATE report_jobs SET status = 'failed', error = $2, completed_at = now()
       WHERE account_id = $1 AND status IN ('queued', 'processing') RETURNING *),
     ${reportFinishedEvents('report.failed')}
     SELECT id FROM done`,
    [accountId, reason],
  );
  return rows.length;
}
