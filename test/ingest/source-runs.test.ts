import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPoliteClient } from '../../gateway/ingest/http/polite-client.ts';
import type { PoliteClientOptions } from '../../gateway/ingest/http/polite-client.ts';
import { runSource } from '../../gateway/ingest/run-source.ts';
import { sourceStatuses } from '../../subgraphs/markets/sources/source-status.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DATA } from '../import/real-data.ts';

/**
 * A source run against a mirror of the real FRED files on a real HTTP server (port 0): the first run imports,
 * the second costs five 304s and changes nothing, a 429 is waited out, and each way a source can fail leaves the
 * data as it was and is recorded with its reason, which /api/stats/sources then shows.
 */
describe('a source run against a fixture mirror', () => {
  let service: TestService;
  let mirror: FixtureServer;
  let work: string;
  const METRICS_TOKEN = 'metrics-token-for-ingest-tests-0123';
  const sql = <Row>(text: string, params: unknown[] = []) => service.databases.live.sql.query<Row>(text, params);
  const series = ['CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'DGS2', 'DGS10'];
  const environment = () => ({ INGEST_FRED_URL: mirror.url('/fred/{series}.csv') });
  const client = (options: Partial<PoliteClientOptions> = {}) =>
    createPoliteClient({
      userAgent: 'data-graph-tests ops@example.com',
      storeDir: join(work, 'files'),
      timeoutMs: 2_000,
      retries: 2,
      backoffBaseMs: 20,
      maxRetryWaitMs: 2_000,
      ...options,
    });
  const run = (options: Partial<PoliteClientOptions> = {}) =>
    runSource(service.databases.live, 'fred', {
      client: client(options),
      workDir: join(work, 'runs'),
      trigger: 'command',
      environment: environment(),
    });
  /** The imported series as they stand: a failed run must leave this exactly as it was. */
  const fingerprint = async () =>
    (
      await sql<{ rows: number; total: number }>(
        'SELECT count(*)::int AS rows, round(sum(value)::numeric, 4)::float8 AS total FROM macro_indicators',
      )
    )[0];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'ingest-runs-'));
    mirror = await startFixtureServer({}, { root: DATA });
    service = await startTestService({ server: { metricsToken: METRICS_TOKEN } });
    // The first answer for UNRATE is a 429: the first run has to wait it out.
    mirror.routes['/fred/UNRATE.csv'] = {
      file: `${DATA}fred/UNRATE.csv`,
      before: [{ status: 429, headers: { 'retry-after': '1' } }],
    };
  });
  afterAll(async () => {
    await service?.stop();
    await mirror?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('imports every series on the first run, through the fred importer, after waiting out a 429', async () => {
    const outcome = await run();
    expect(outcome).toMatchObject({ source: 'fred', status: 'succeeded', requests: 5, error: null });
    // docs/data-sources.md "fred": the real files hold 27,939 observations (1,150 holiday placeholders skipped).
    expect(outcome.counts).toMatchObject({ inserted: 27_939, skipped: 1_150, rejected: 0 });
    expect(await fingerprint()).toMatchObject({ rows: 27_939 });
    expect(outcome.records).toBe(27_939);
    expect(outcome.newest_record).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const id of series.filter((id) => id !== 'UNRATE'))
      expect(mirror.requestsTo(`/fred/${id}.csv`)).toHaveLength(1);
    const unrate = mirror.requestsTo('/fred/UNRATE.csv');
    expect(unrate.map((request) => request.status)).toEqual([429, 200]);
    expect(unrate[1]!.at - unrate[0]!.at).toBeGreaterThanOrEqual(900);
    expect(mirror.requests[0]!.headers['user-agent']).toBe('data-graph-tests ops@example.com');
  });

  it('asks again with the validators, gets 304s and changes nothing', async () => {
    const before = await fingerprint();
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'unchanged', counts: null, bytes: 0 });
    for (const id of series) {
      const second = mirror.requestsTo(`/fred/${id}.csv`).at(-1)!;
      expect(second.headers['if-none-match']).toBeTruthy();
      expect(second.status).toBe(304);
    }
    expect(await fingerprint()).toEqual(before);
  });

  const failures: [string, () => void, RegExp][] = [
    ['a 503 on every attempt', () => (mirror.routes['/fred/DGS10.csv'] = { status: 503, body: 'down' }), /503/],
    [
      'an HTML error page',
      () =>
        (mirror.routes['/fred/DGS10.csv'] = {
          body: '<!DOCTYPE html><html><body>Service maintenance</body></html>',
          contentType: 'text/html',
        }),
      /HTML/i,
    ],
    [
      'a body cut short',
      () => (mirror.routes['/fred/DGS10.csv'] = { body: 'observation_date,DGS10\n2024-01-02,3.95\n', cutAfter: 20 }),
      /truncat|cut|ended/i,
    ],
    [
      'a file its importer cannot read, without showing what the importer said',
      // A real CSV, but not a FRED series: the fred importer refuses its header.
      () => (mirror.routes['/fred/DGS10.csv'] = { file: `${DATA}companies/fortune1000.csv` }),
      /^the import failed; the server log has the detail$/,
    ],
    [
      'a body slower than the timeout',
      () =>
        (mirror.routes['/fred/DGS10.csv'] = {
          body: 'observation_date,DGS10\n'.repeat(200),
          trickle: { bytes: 10, everyMs: 100 },
        }),
      /within \d+ ms/,
    ],
  ];
  for (const [name, breakMirror, reason] of failures) {
    it(`records ${name} as a failed run with its reason, and leaves the data as it was`, async () => {
      // The other files change, so only the broken one can keep the run from importing.
      mirror.routes['/fred/CPIAUCSL.csv'] = { file: `${DATA}fred/CPIAUCSL.csv`, etag: `"${name}"` };
      const before = await fingerprint();
      breakMirror();
      const outcome = await run();
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toMatch(reason);
      expect(outcome.counts).toBeNull();
      expect(await fingerprint()).toEqual(before);
      const [stored] = await sql<{ status: string; error: string }>(
        'SELECT status, error FROM source_runs WHERE id = $1',
        [outcome.run],
      );
      expect(stored).toEqual({ status: 'failed', error: outcome.error });
    });
  }

  it('shows each source on /api/stats/sources, and flags one whose mirror stopped answering once it is stale', async () => {
    const response = await service.request('GET', '/api/stats/sources');
    expect(response.status).toBe(200);
    const fred = response.body.sources.find((source: { source: string }) => source.source === 'fred');
    expect(fred).toMatchObject({
      cadence: 'daily',
      last_status: 'failed',
      records: 27_939,
      stale: false,
    });
    expect(fred.last_error).toMatch(/within \d+ ms/);
    expect(Date.parse(fred.last_success)).toBeLessThanOrEqual(Date.parse(fred.last_attempt));
    const never = response.body.sources.find((source: { source: string }) => source.source === 'house-trades');
    expect(never).toMatchObject({ last_attempt: null, last_success: null, records: null, stale: true });

    // Three days on, with every run since failing: two daily runs have passed since the last success.
    const threeDaysOn = new Date(Date.now() + 3 * 86_400_000);
    const later = (await sourceStatuses(service.databases.live.sql, threeDaysOn)).find((s) => s.source === 'fred');
    expect(later).toMatchObject({ stale: true, last_status: 'failed' });
    await sql(
      `UPDATE source_runs SET started_at = started_at - interval '3 days', finished_at = finished_at - interval '3 days'`,
    );
    const stale = await service.request('GET', '/api/stats/sources');
    expect(stale.body.sources.find((source: { source: string }) => source.source === 'fred').stale).toBe(true);

    const graphql = await service.request('POST', '/graphql', {
      body: { query: '{ sources { source stale lastStatus } }' },
    });
    expect(graphql.body.errors, JSON.stringify(graphql.body.errors)).toBeUndefined();
    expect(graphql.body.data.sources.find((source: { source: string }) => source.source === 'fred')).toEqual({
      source: 'fred',
      stale: true,
      lastStatus: 'failed',
    });
  });

  it('counts runs by status and flags stale sources on /metrics', async () => {
    const response = await service.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    const runs = await sql<{ status: string; runs: number }>(
      `SELECT status, count(*)::int AS runs FROM source_runs WHERE source = 'fred' GROUP BY 1`,
    );
    expect(runs.find((row) => row.status === 'failed')?.runs).toBe(5);
    for (const { status, runs: count } of runs) {
      expect(response.text).toContain(`ingest_runs{source="fred",status="${status}"} ${count}`);
    }
    expect(response.text).toContain('ingest_source_stale{source="fred"} 1');
    expect(response.text).toMatch(/ingest_source_last_success_seconds\{source="fred"\} \d+/);
  });

  it('dates /api/stats/public from the newest successful run', async () => {
    const [newest] = await sql<{ at: string }>(
      `SELECT to_char(max(finished_at), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM source_runs WHERE status IN ('succeeded', 'unchanged')`,
    );
    const response = await service.request('GET', '/api/stats/public');
    expect(response.body.last_updated).toBe(newest!.at);
  });

  it('writes nothing when the importer fails half-way: the files read before the bad one are not kept either', async () => {
    // A new CPI print, then DGS2 again (11,635 rows: the importer writes in batches of 1,000, so the print is
    // written before it reaches DGS10, the file it refuses).
    const cpi = `${await readFile(`${DATA}fred/CPIAUCSL.csv`, 'utf8')}2017-06-01,250.5\n`;
    mirror.routes['/fred/CPIAUCSL.csv'] = { body: cpi, contentType: 'text/csv' };
    mirror.routes['/fred/DGS2.csv'] = { file: `${DATA}fred/DGS2.csv`, etag: '"half-way"' };
    mirror.routes['/fred/DGS10.csv'] = { file: `${DATA}companies/fortune1000.csv` };
    const before = await fingerprint();
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'failed', counts: null });
    expect(await fingerprint()).toEqual(before);
    const newPrint = await sql(`SELECT 1 FROM macro_indicators WHERE series_id = 'CPIAUCSL' AND date = '2017-06-01'`);
    expect(newPrint).toEqual([]);

    // Once the bad file is fixed, the same run keeps everything, the new print with it.
    mirror.routes['/fred/DGS10.csv'] = { file: `${DATA}fred/DGS10.csv`, etag: '"fixed"' };
    expect(await run()).toMatchObject({ status: 'succeeded' });
    const [kept] = await sql<{ value: number }>(
      `SELECT value FROM macro_indicators WHERE series_id = 'CPIAUCSL' AND date = '2017-06-01'`,
    );
    expect(kept).toEqual({ value: 250.5 });
  });
});
