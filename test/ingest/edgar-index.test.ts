import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPoliteClient } from '../../gateway/ingest/http/polite-client.ts';
import { runSource } from '../../gateway/ingest/run-source.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REAL_FILES } from '../import/real-data.ts';

const RATE = 4;
const INDEX = readFileSync(REAL_FILES.index, 'utf8').split('\n');
/** The real index's header, four Form 4 lines, one 8-K and one form the run does not follow (1-A). */
const LISTED = [...INDEX.slice(0, 10), INDEX[274], INDEX[275], INDEX[276], INDEX[277], INDEX[3176], INDEX[10]].join(
  '\n',
);
const FORM4_PATHS = [274, 275, 276, 277].map((line) => INDEX[line]!.trim().split(/\s+/).at(-1)!);
/** A full EDGAR submission as the index names it: SGML headers, then the Form 4 XML (the real Snowflake one). */
const SUBMISSION = `<SEC-DOCUMENT>0000000000-20-000000.txt : 20200318
<SEC-HEADER>
CONFORMED SUBMISSION TYPE:	4
</SEC-HEADER>
<DOCUMENT>
<TYPE>4
<TEXT>
<XML>
${readFileSync(REAL_FILES.form4, 'utf8')}
</XML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;

/**
 * The EDGAR daily index run against a mirror: it imports the index, fetches exactly the Form 4s it lists at the
 * allowed rate and turns them into insider trades and signals, and refreshes the submissions of a tracked
 * company it lists an 8-K for.
 */
describe('the EDGAR index run', () => {
  let store: TestDatabases;
  let mirror: FixtureServer;
  let work: string;
  const sql = <Row>(text: string, params: unknown[] = []) => store.databases.live.sql.query<Row>(text, params);
  // Retries off only where the test wants a refused host's failures counted one by one.
  const run = (form4Url = mirror.url('/Archives/{path}'), retries = 2) =>
    runSource(store.databases.live, 'edgar-index', {
      client: createPoliteClient({
        userAgent: 'data-graph-tests ops@example.com',
        storeDir: join(work, 'files'),
        requestsPerSecondPerHost: RATE,
        retries,
        backoffBaseMs: 50,
      }),
      workDir: join(work, 'runs'),
      trigger: 'command',
      form4PerRun: 5,
      environment: {
        INGEST_EDGAR_INDEX_URL: mirror.url('/index/form.20200318.idx'),
        INGEST_FORM4_URL: form4Url,
        INGEST_SEC_SUBMISSIONS_URL: mirror.url('/submissions/CIK{cik}.json'),
      },
    });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'ingest-edgar-'));
    mirror = await startFixtureServer({
      '/index/form.20200318.idx': { body: LISTED, contentType: 'text/plain' },
      '/submissions/CIK0001404123.json': { file: REAL_FILES.submissions },
      ...Object.fromEntries(
        FORM4_PATHS.map((path) => [`/Archives/${path}`, { body: SUBMISSION, contentType: 'text/plain' }]),
      ),
    });
    store = await createTestDatabases();
    // The 8-K's company is tracked: it has a profile with its CIK.
    await sql(
      `INSERT INTO company_profiles (ticker, cik, company_name, sector, industry, description)
       VALUES ('ONEM', '0001404123', '1Life Healthcare Inc', '', '', '')`,
    );
  });
  afterAll(async () => {
    await store?.drop();
    await mirror?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('fetches exactly the listed Form 4s, at the allowed rate, into insider trades and signals', async () => {
    const outcome = await run();
    expect(outcome.status).toBe('succeeded');
    expect(outcome.counts).toMatchObject({ 'sec-submissions': { rejected: 0 }, documents_failed: 0 });
    const archive = mirror.requests.filter((request) => request.path.startsWith('/Archives/'));
    expect(archive.map((request) => request.path).sort()).toEqual(
      FORM4_PATHS.map((path) => `/Archives/${path}`).sort(),
    );

    const accessions = FORM4_PATHS.map((path) => /(\d{10}-\d{2}-\d{6})/.exec(path)![1]!);
    const trades = await sql<{ accession_number: string; rows: number }>(
      `SELECT accession_number, count(*)::int AS rows FROM insider_transactions GROUP BY 1 ORDER BY 1`,
    );
    // The Snowflake Form 4 has 7 transactions (6 stock rows and 1 option row): 7 per listed filing.
    expect(trades).toEqual(accessions.sort().map((accession) => ({ accession_number: accession, rows: 7 })));
    const signals = await sql<{ source_key: string }>(
      `SELECT source_key FROM signals WHERE signal_type = 'insider_sell' ORDER BY 1`,
    );
    expect(signals.map((signal) => signal.source_key)).toEqual(accessions.map((accession) => `form4:${accession}:S`));
    const listed = await sql<{ form_type: string; fetched: boolean }>(
      `SELECT form_type, fetched_at IS NOT NULL AS fetched FROM filings WHERE accession_number = ANY($1::text[])
        ORDER BY 1`,
      [[...accessions, /(\d{10}-\d{2}-\d{6})/.exec(INDEX[3176]!)![1]!]],
    );
    expect(listed).toEqual([
      ...accessions.map(() => ({ form_type: '4', fetched: true })),
      { form_type: '8-K', fetched: true },
    ]);

    // One host, RATE requests a second at most: any RATE + 1 arrivals span about a second (arrival times on a
    // loaded machine drift by tens of milliseconds; without the limit they would span a few milliseconds).
    const arrivals = mirror.requests.map((request) => request.at);
    for (let first = 0; first + RATE < arrivals.length; first++) {
      expect(arrivals[first + RATE]! - arrivals[first]!, JSON.stringify(arrivals)).toBeGreaterThanOrEqual(800);
    }
  });

  it("refreshes the submissions of a tracked company the index lists an 8-K for, and not the other forms'", async () => {
    expect(mirror.requestsTo('/submissions/CIK0001404123.json')).toHaveLength(1);
    // The mirror answers with the real Tesla submissions: its 8-Ks become signals, its Form 4s filings to fetch.
    const [tesla] = await sql<{ signals: number; form4s: number }>(
      `SELECT (SELECT count(*)::int FROM signals WHERE signal_type = 'sec_filing' AND ticker = 'TSLA') AS signals,
              (SELECT count(*)::int FROM filings WHERE cik = '0001318605' AND form_type = '4') AS form4s`,
    );
    expect(tesla!.signals).toBeGreaterThan(150);
    expect(tesla!.form4s).toBe(502);
    const other = INDEX[10]!.trim().split(/\s+/).at(-1)!;
    expect(mirror.requestsTo(`/Archives/${other}`)).toHaveLength(0);
  });

  it('runs again as a 304, fetches nothing already fetched, and counts documents the mirror lacks as failed', async () => {
    const before = mirror.requests.length;
    const outcome = await run();
    const since = mirror.requests.slice(before);
    expect(since[0]).toMatchObject({ path: '/index/form.20200318.idx', status: 304 });
    // Next come the newest Form 4s the Tesla submissions listed (at most form4PerRun), which this mirror lacks.
    const documents = since.slice(1);
    expect(documents).toHaveLength(5);
    for (const request of documents) {
      expect(request.path).toMatch(/^\/Archives\/edgar\/data\/1318605\//);
      expect(request.status).toBe(404);
    }
    expect(outcome).toMatchObject({ status: 'unchanged', counts: { documents_failed: 5 } });
    expect(outcome.error).toMatch(/404/);
  });

  it('leaves the documents for the next run once their host stops answering', async () => {
    // Port 1 refuses connections: three documents in a row get no answer, the other two are not tried.
    const outcome = await run('http://127.0.0.1:1/Archives/{path}', 0);
    expect(outcome).toMatchObject({ status: 'unchanged', counts: { documents_failed: 3 } });
    expect(outcome.error).toMatch(/2 documents left for the next run: the host did not answer/);
  });
});
