import { hostname } from 'node:os';
import type { SqlClient } from '../../subgraphs/platform/database.ts';

/**
 * A job (a source, or the daily briefing) runs in one process at a time across every gateway on the database:
 * a process claims it with one UPDATE that moves `lease_until` into the future, which only one of several
 * racing processes can do (PostgreSQL re-checks the WHERE after a concurrent update). The holder renews the
 * lease while it runs, so a process that dies loses the job to the next claim within `LEASE_MS`.
 */
export const LEASE_MS = 10 * 60_000;
const RENEW_MS = 2 * 60_000;

/** This process, as the runs table and `ingest -- status` name it. */
export const PROCESS_HOLDER = `${hostname()}:${process.pid}`;

export interface Lease {
  /** Releases the job and sets its next scheduled run. */
  release(nextRunAt: Date | null): Promise<void>;
}

/**
 * Claims `job` when nobody holds it and, with `dueOnly`, when its next run is due (never run counts as due).
 * Returns undefined when it is not to be run now.
 */
export async function claimJob(
  sql: SqlClient,
  job: string,
  options: { dueOnly: boolean; holder?: string },
): Promise<Lease | undefined> {
  const holder = options.holder ?? PROCESS_HOLDER;
  await sql.query(`INSERT INTO ingest_jobs (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [job]);
  const claimed = await sql.query(
    `UPDATE ingest_jobs SET lease_until = now() + $2 * interval '1 millisecond', lease_holder = $3
      WHERE name = $1 AND (lease_until IS NULL OR lease_until < now())
        ${options.dueOnly ? 'AND (next_run_at IS NULL OR next_run_at <= now())' : ''}
      RETURNING name`,
    [job, LEASE_MS, holder],
  );
  if (claimed.length === 0) return undefined;
  const renewal = setInterval(() => {
    sql
      .query(
        `UPDATE ingest_jobs SET lease_until = now() + $2 * interval '1 millisecond' WHERE name = $1 AND lease_holder = $3`,
        [job, LEASE_MS, holder],
      )
      .catch(() => undefined); // a missed renewal is retried; the lease is five renewals long
  }, RENEW_MS);
  renewal.unref();
  return {
    async release(nextRunAt) {
      clearInterval(renewal);
      await sql.query(
        `UPDATE ingest_jobs SET lease_until = NULL, lease_holder = NULL, next_run_at = $3
          WHERE name = $1 AND lease_holder = $2`,
        [job, holder, nextRunAt],
      );
    },
  };
}

/** Who holds a job now, for the refusal of `ingest -- run` while the schedule runs it elsewhere. */
export async function jobHolder(sql: SqlClient, job: string): Promise<{ holder: string; until: Date } | undefined> {
  const [row] = await sql.query<{ lease_holder: string; lease_until: Date }>(
    `SELECT lease_holder, lease_until FROM ingest_jobs WHERE name = $1 AND lease_until >= now()`,
    [job],
  );
  return row ? { holder: row.lease_holder, until: new Date(row.lease_until) } : undefined;
}
