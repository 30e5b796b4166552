import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJob } from '../../gateway/ingest/job-lease.ts';
import { nextScheduledRun, sourceSchedule } from '../../subgraphs/markets/sources/catalog.ts';
import type { SqlClient } from '../../subgraphs/platform/database.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { startServiceProcess } from '../support/processes.ts';
import type { ServiceProcess } from '../support/processes.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DATA } from '../import/real-data.ts';

const FRED_FILES = ['CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'DGS2', 'DGS10'].map((series) => `/fred/${series}.csv`);

/** Waits until `source` has a finished run, and returns the runs. */
async function finishedRuns(sql: SqlClient, source: string) {
  for (let waited = 0; waited < 120_000; waited += 200) {
    const runs = await sql.query<{ status: string; holder: string; trigger: string }>(
      `SELECT status, holder, trigger FROM source_runs WHERE source = $1 AND status <> 'running'`,
      [source],
    );
    if (runs.length) return runs;
    await sleep(200);
  }
  throw new Error(`${source} never finished a run`);
}

describe('the ingestion schedule', () => {
  let mirror: FixtureServer;
  let work: string;

  beforeAll(async () => {
    mirror = await startFixtureServer({}, { root: DATA });
    work = await mkdtemp(join(tmpdir(), 'ingest-schedule-'));
  });
  afterAll(async () => {
    await mirror?.close();
    await rm(work, { recursive: true, force: true });
  });

  describe('in a gateway with INGEST_SCHEDULE on', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService({
        server: {
          ingest: {
            enabled: true,
            pollMs: 100,
            sources: ['fred'],
            environment: { INGEST_FRED_URL: mirror.url('/fred/{series}.csv') },
            client: { storeDir: join(work, 'files'), userAgent: 'data-graph-tests ops@example.com' },
            workDir: join(work, 'runs'),
          },
        },
      });
    });
    afterAll(() => service?.stop());

    it('runs a due source once, on its own, and schedules its next run', async () => {
      const sql = service.databases.live.sql;
      const runs = await finishedRuns(sql, 'fred');
      expect(runs).toEqual([expect.objectContaining({ status: 'succeeded', trigger: 'schedule' })]);
      // Polls keep coming every 100 ms; the source is not due again until its next slot.
      await sleep(1_000);
      expect(await sql.query(`SELECT 1 FROM source_runs WHERE source = 'fred'`)).toHaveLength(1);
      const [job] = await sql.query<{ next_run_at: Date; lease_until: Date | null }>(
        `SELECT next_run_at, lease_until FROM ingest_jobs WHERE name = 'fred'`,
      );
      expect(job!.lease_until).toBeNull();
      const next = new Date(job!.next_run_at);
      expect(next.getTime()).toBe(nextScheduledRun(sourceSchedule('fred')!.cron, new Date()).getTime());
      expect(next.getUTCHours()).toBe(21);
      // Sources left out of INGEST_SOURCES are not run.
      expect(await sql.query(`SELECT 1 FROM source_runs WHERE source <> 'fred'`)).toEqual([]);
      // The daily job then runs in the same pass: a briefing of the newest day the macro signals made.
      let briefing: { next_run_at: Date | null }[] = [];
      for (let waited = 0; waited < 30_000 && !briefing[0]?.next_run_at; waited += 200) {
        briefing = await sql.query(`SELECT next_run_at FROM ingest_jobs WHERE name = 'daily-briefing'`);
        await sleep(200);
      }
      expect(new Date(briefing[0]!.next_run_at!).getUTCHours()).toBe(23);
      const [newest] = await sql.query<{ day: string }>(
        `SELECT to_char(max(created_at), 'YYYY-MM-DD') AS day FROM signals WHERE created_at <= now()`,
      );
      const briefings = await sql.query<{ day: string }>(`SELECT to_char(date, 'YYYY-MM-DD') AS day FROM briefings`);
      expect(briefings).toEqual([{ day: newest!.day }]);
      const stats = await service.request('GET', '/api/stats/sources');
      const fred = stats.body.sources.find((source: { source: string }) => source.source === 'fred');
      expect(fred).toMatchObject({ last_status: 'succeeded', records: 27_939, stale: false });
      expect(Date.parse(fred.next_run)).toBe(next.getTime());
    });
  });

  describe('a job lease', () => {
    let store: TestDatabases;
    beforeAll(async () => {
      store = await createTestDatabases();
    });
    afterAll(() => store?.drop());

    it('goes to one of many claims made at once, and to nobody else until it is released', async () => {
      const sql = store.databases.live.sql;
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => claimJob(sql, 'prices', { dueOnly: true, holder: `claimant-${i}` })),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await claimJob(sql, 'prices', { dueOnly: false, holder: 'late' })).toBeUndefined();
      const tomorrow = new Date(Date.now() + 86_400_000);
      await claims.find(Boolean)!.release(tomorrow);
      // Released, but not due: only a command (dueOnly false) may run it now.
      expect(await claimJob(sql, 'prices', { dueOnly: true, holder: 'schedule' })).toBeUndefined();
      const command = await claimJob(sql, 'prices', { dueOnly: false, holder: 'command' });
      expect(command).toBeDefined();
      await command!.release(tomorrow);
    });
  });

  if (TEST_ENGINE === 'postgres') {
    describe('two gateway processes on one PostgreSQL', () => {
      let store: TestDatabases;
      const gateways: ServiceProcess[] = [];
      /** The mirror's requests before either gateway starts: one may run the source before the other is up. */
      let before: number[];
      beforeAll(async () => {
        store = await createTestDatabases();
        before = FRED_FILES.map((path) => mirror.requestsTo(path).length);
        const env = (name: string) => ({
          DATABASE_URL: store.urls.live!,
          SANDBOX_DATABASE_URL: store.urls.sandbox!,
          DATA_DIR: join(work, name),
          HOST: '127.0.0.1',
          PORT: '0',
          LOG_LEVEL: 'warn',
          INGEST_SCHEDULE: 'on',
          INGEST_SOURCES: 'fred',
          INGEST_POLL_MS: '100',
          INGEST_FRED_URL: mirror.url('/fred/{series}.csv'),
        });
        const started = await Promise.allSettled(
          ['a', 'b'].map((name) =>
            startServiceProcess('gateway/main.ts', [], env(name), /Data graph ready at http:\/\/localhost:(\d+)/),
          ),
        );
        for (const result of started) if (result.status === 'fulfilled') gateways.push(result.value);
        const failed = started.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
      });
      afterAll(async () => {
        await Promise.all(gateways.map((gateway) => gateway.stop()));
        await store?.drop();
      });

      it('run a source once between them', async () => {
        const runs = await finishedRuns(store.databases.live.sql, 'fred');
        await sleep(1_500); // both keep polling every 100 ms
        const after = await store.databases.live.sql.query(`SELECT holder FROM source_runs WHERE source = 'fred'`);
        expect(runs).toHaveLength(1);
        expect(after).toHaveLength(1);
        expect(FRED_FILES.map((path, i) => mirror.requestsTo(path).length - before[i]!)).toEqual([1, 1, 1, 1, 1]);
      });
    });
  }
});
