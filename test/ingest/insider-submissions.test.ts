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
import { DATA, SNAPSHOT_DAY } from '../import/real-data.ts';

/** Real SEC answers (test/fixtures/real/SOURCES.md): Katherine Adams's submissions and one of her Form 4s. */
const OWNER_CIK = '0001462356';
const SUBMISSIONS = `${DATA}sec_edgar/submissions/CIK${OWNER_CIK}.json`;
const FORM4_PATH = 'edgar/data/1462356/000032019322000061/wf-form4_165187623819106.xml';
const ACCESSION = '0000320193-22-000061';
const recent = (JSON.parse(readFileSync(SUBMISSIONS, 'utf8')) as { filings: { recent: Record<string, string[]> } })
  .filings.recent;
const form4Dates = recent.filingDate!.filter((_date, index) => recent.form![index] === '4');
/** Her Form 4s filed on or after the one the mirror has: the newest-first run asks for exactly these. */
const ASKED = form4Dates.filter((date) => date >= '2022-05-06').length;

/**
 * An insider's Form 4 reaches the database through the sources alone: a tracked CIK's submissions document lists
 * it, and the EDGAR run fetches the XML (not the XSL rendering the listing names) and imports it.
 */
describe("a tracked insider's Form 4, from the submissions document to a signal", () => {
  let store: TestDatabases;
  let mirror: FixtureServer;
  let work: string;
  const sql = <Row>(text: string, params: unknown[] = []) => store.databases.live.sql.query<Row>(text, params);
  const documentPaths = (from = 0) =>
    mirror.requests
      .slice(from)
      .map((request) => request.path)
      .filter((path) => path.startsWith('/Archives/'));
  const run = (source: string) =>
    runSource(store.databases.live, source, {
      client: createPoliteClient({
        userAgent: 'data-graph-tests ops@example.com',
        storeDir: join(work, 'files'),
        retries: 0,
      }),
      workDir: join(work, 'runs'),
      trigger: 'command',
      now: SNAPSHOT_DAY,
      form4PerRun: ASKED,
      environment: {
        INGEST_SEC_SUBMISSIONS_URL: mirror.url('/submissions/CIK{cik}.json'),
        INGEST_SEC_SUBMISSIONS_CIKS: '1462356',
        // No daily index is published on the mirror: the run goes straight to the documents still to fetch.
        INGEST_EDGAR_INDEX_URL: mirror.url('/daily-index/form.{yyyymmdd}.idx'),
        INGEST_FORM4_URL: mirror.url('/Archives/{path}'),
      },
    });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'ingest-insider-'));
    mirror = await startFixtureServer({
      [`/submissions/CIK${OWNER_CIK}.json`]: { file: SUBMISSIONS },
      [`/Archives/${FORM4_PATH}`]: { file: `${DATA}sec_edgar/Archives/${FORM4_PATH}` },
    });
    store = await createTestDatabases();
  });
  afterAll(async () => {
    await store?.drop();
    await mirror?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('lists every Form 4 of the submissions as a filing to fetch, with no profile or signal for a person', async () => {
    const outcome = await run('sec-submissions');
    expect(outcome.status).toBe('succeeded');
    const [listed] = await sql<{ form4s: number; unfetched: number; profiles: number; signals: number }>(
      `SELECT (SELECT count(*)::int FROM filings WHERE cik = $1 AND form_type = '4') AS form4s,
              (SELECT count(*)::int FROM filings WHERE cik = $1 AND fetched_at IS NULL) AS unfetched,
              (SELECT count(*)::int FROM company_profiles WHERE cik = $1) AS profiles,
              (SELECT count(*)::int FROM signals) AS signals`,
      [OWNER_CIK],
    );
    expect(listed).toEqual({ form4s: form4Dates.length, unfetched: form4Dates.length, profiles: 0, signals: 0 });
  });

  it('fetches the newest Form 4s as XML and turns the one the mirror has into insider trades and a signal', async () => {
    const outcome = await run('edgar-index');
    expect(outcome.status).toBe('succeeded');
    expect(outcome.counts).toMatchObject({ form4: { rejected: 0 }, documents_failed: ASKED - 1 });

    const documents = mirror.requests.filter((request) => request.path.startsWith('/Archives/'));
    expect(documents).toHaveLength(ASKED);
    for (const request of documents) {
      expect(request.path).toMatch(/^\/Archives\/edgar\/data\/1462356\/\d{18}\/[^/]+\.xml$/);
    }
    expect(documents.filter((request) => request.status === 200).map((request) => request.path)).toEqual([
      `/Archives/${FORM4_PATH}`,
    ]);

    const trades = await sql<{ ticker: string; owner_name: string; transaction_code: string; rows: number }>(
      `SELECT ticker, owner_name, transaction_code, count(*)::int AS rows FROM insider_transactions
        WHERE accession_number = $1 GROUP BY 1, 2, 3`,
      [ACCESSION],
    );
    expect(trades).toEqual([{ ticker: 'AAPL', owner_name: 'Adams Katherine L.', transaction_code: 'S', rows: 7 }]);
    const signals = await sql<{ ticker: string; signal_type: string; source_key: string }>(
      `SELECT ticker, signal_type, source_key FROM signals`,
    );
    expect(signals).toEqual([{ ticker: 'AAPL', signal_type: 'insider_sell', source_key: `form4:${ACCESSION}:S` }]);
    // The imported one is done (and filed under its issuer, Apple); the ones the mirror lacks are tried next run.
    const [filing] = await sql<{ cik: string; fetched: boolean; unfetched: number }>(
      `SELECT cik, fetched_at IS NOT NULL AS fetched,
              (SELECT count(*)::int FROM filings WHERE cik = $2 AND fetched_at IS NULL) AS unfetched
         FROM filings WHERE accession_number = $1`,
      [ACCESSION, OWNER_CIK],
    );
    expect(filing).toEqual({ cik: '0000320193', fetched: true, unfetched: form4Dates.length - 1 });
  });

  it('asks next for the Form 4s not yet tried, and leaves one after five unusable answers', async () => {
    const askedBefore = new Set(documentPaths());
    const before = mirror.requests.length;
    await run('edgar-index');
    const next = documentPaths(before);
    expect(next).toHaveLength(ASKED);
    expect(next.filter((path) => askedBefore.has(path))).toEqual([]);

    // All but three have had their five answers: a run asks for those three only.
    await sql(
      `UPDATE filings SET fetch_attempts = 5 WHERE cik = $1 AND fetched_at IS NULL
          AND accession_number NOT IN (SELECT accession_number FROM filings WHERE cik = $1 AND fetched_at IS NULL
                                        ORDER BY accession_number LIMIT 3)`,
      [OWNER_CIK],
    );
    const last = mirror.requests.length;
    const outcome = await run('edgar-index');
    expect(documentPaths(last)).toHaveLength(3);
    expect(outcome.counts).toMatchObject({ documents_failed: 3 });
  });
});
