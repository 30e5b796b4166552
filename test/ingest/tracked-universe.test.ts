import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { createPoliteClient } from '../../gateway/ingest/http/polite-client.ts';
import { runSource } from '../../gateway/ingest/run-source.ts';
import { SOURCE_FILES } from '../../gateway/ingest/source-files.ts';
import { MAX_CIKS, MAX_TICKERS, trackedTickers } from '../../gateway/ingest/tracked-universe.ts';
import { sourceStatuses } from '../../subgraphs/markets/sources/source-status.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DATA, REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';

/**
 * Which tickers and companies a run fetches is the service's choice, not a caller's: watchlists only vote among
 * tickers the SEC list names, rank below the priced tickers and the S&P 500, and count only while the account's
 * plan includes watchlists. A ticker the source lacks fails its document, not the run.
 */
describe('the tickers and companies a run fetches', () => {
  let service: TestService;
  let mirror: FixtureServer;
  let work: string;
  let analyst: { key: string; accountId: string };
  const sql = <Row>(text: string, params: unknown[] = []) => service.databases.live.sql.query<Row>(text, params);
  const environment = () => ({ INGEST_PRICES_URL: mirror.url('/prices/{ticker}.US_D1.csv') });
  const plannedNames = async (source: string) =>
    (await SOURCE_FILES[source]!({ db: service.databases.live, now: SNAPSHOT_DAY, environment: environment() })).map(
      (file) => file.name,
    );
  const watch = (accountId: string, tickers: string[]) =>
    sql(
      `INSERT INTO watchlist_entries (account_id, ticker, company_name)
       SELECT $1, ticker, ticker FROM unnest($2::text[]) AS t(ticker)`,
      [accountId, tickers],
    );

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'ingest-universe-'));
    mirror = await startFixtureServer({}, { root: DATA });
    service = await startTestService();
    const live = service.databases.live;
    await runImport(live, 'sec-tickers', [REAL_FILES.tickers], { now: SNAPSHOT_DAY });
    await runImport(live, 'sp500-constituents', [REAL_FILES.sp500], { now: SNAPSHOT_DAY });
    // AAPL is already priced: the service's own universe.
    await runImport(live, 'prices', [REAL_FILES.prices[0]!], { now: SNAPSHOT_DAY });
    analyst = await service.createKey({ plan: 'analyst', mode: 'live' });
  });
  afterAll(async () => {
    await service?.stop();
    await mirror?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('never asks for an unlisted watchlist ticker, and counts a listed one the source lacks as a failed document', async () => {
    for (const ticker of ['ZZZZ', 'NVDA', 'MSFT']) {
      const added = await service.request('POST', '/api/watchlist', {
        key: analyst.key,
        body: { ticker, company_name: `${ticker} Inc` },
      });
      expect([200, 201], added.text).toContain(added.status);
    }
    const outcome = await runSource(service.databases.live, 'prices', {
      client: createPoliteClient({ userAgent: 'data-graph-tests ops@example.com', storeDir: join(work, 'files') }),
      workDir: join(work, 'runs'),
      trigger: 'command',
      now: SNAPSHOT_DAY,
      environment: environment(),
    });

    expect(mirror.requests.map((request) => request.path).sort()).toEqual(
      ['/prices/AAPL.US_D1.csv', '/prices/MSFT.US_D1.csv', '/prices/NVDA.US_D1.csv'].sort(),
    );
    // The mirror has no MSFT file: its 404 is one failed document of three; AAPL and NVDA are imported.
    expect(outcome).toMatchObject({
      status: 'succeeded',
      requests: 2,
      counts: { documents_failed: 1, rejected: 44 },
      error: '1 of 3 documents failed: MSFT.csv: HTTP 404 Not Found',
    });
    const priced = await sql<{ ticker: string }>(`SELECT DISTINCT ticker FROM daily_prices ORDER BY ticker`);
    expect(priced.map((row) => row.ticker)).toEqual(['AAPL', 'NVDA']);

    const shown = { last_status: 'succeeded', last_error: outcome.error };
    const status = (await sourceStatuses(service.databases.live.sql)).find((row) => row.source === 'prices');
    expect(status).toMatchObject(shown);
    const stats = await service.request('GET', '/api/stats/sources');
    expect(stats.body.sources.find((row: { source: string }) => row.source === 'prices')).toMatchObject(shown);
  });

  it('lets no watchlist steer whose account is gone or disabled or whose plan no longer includes watchlists', async () => {
    const [unwatched] = await sql<{ ticker: string }>(
      `SELECT ticker FROM company_profiles WHERE sector = '' AND ticker NOT IN (SELECT ticker FROM watchlist_entries)
        ORDER BY ticker LIMIT 1`,
    );
    await watch(randomUUID(), [unwatched!.ticker]);
    expect(await plannedNames('prices')).not.toContain(`${unwatched!.ticker}.csv`);

    await watch(analyst.accountId, [unwatched!.ticker]);
    expect(await trackedTickers(service.databases.live)).toContain(unwatched!.ticker);
    // The plan is read at fetch time: were watchlists a Professional feature, this analyst's list would count for nothing.
    expect(await trackedTickers(service.databases.live, ['professional', 'institutional'])).toEqual(['AAPL', 'NVDA']);
    // A disabled account's list counts for nothing either, until it is enabled again.
    await sql(`UPDATE accounts SET disabled_at = now() WHERE id = $1`, [analyst.accountId]);
    expect(await trackedTickers(service.databases.live)).not.toContain(unwatched!.ticker);
    await sql(`UPDATE accounts SET disabled_at = NULL WHERE id = $1`, [analyst.accountId]);
    expect(await trackedTickers(service.databases.live)).toContain(unwatched!.ticker);
  });

  it('keeps the priced tickers and the S&P 500 in the list whatever the watchlists add', async () => {
    // 200 made-up tickers that sort first, and 200 listed ones outside the S&P 500, each watched by one account.
    await watch(
      analyst.accountId,
      Array.from({ length: MAX_TICKERS }, (_, index) => `A${String(index).padStart(4, '0')}`),
    );
    const listed = await sql<{ ticker: string }>(
      `SELECT ticker FROM company_profiles WHERE sector = '' ORDER BY ticker LIMIT ${MAX_TICKERS}`,
    );
    await watch(
      (await service.createKey({ plan: 'analyst', mode: 'live' })).accountId,
      listed.map((row) => row.ticker),
    );

    const names = await plannedNames('prices');
    expect(names).toHaveLength(MAX_TICKERS);
    expect(names.slice(0, 3).sort()).toEqual(['AAPL.csv', 'MSFT.csv', 'NVDA.csv']);
    expect(names.filter((name) => /^A\d{4}\.csv$/.test(name) || name === 'ZZZZ.csv')).toEqual([]);
  });

  it('keeps every S&P 500 company in the submissions list, however many low CIKs the watchlists hold', async () => {
    const companies = await sql<{ ticker: string }>(
      `SELECT DISTINCT ON (cik) ticker FROM company_profiles WHERE sector = '' AND cik IS NOT NULL
        ORDER BY cik, ticker LIMIT ${MAX_CIKS}`,
    );
    await watch(
      (await service.createKey({ plan: 'analyst', mode: 'live' })).accountId,
      companies.map((row) => row.ticker),
    );
    const sp500 = await sql<{ cik: string }>(
      `SELECT DISTINCT cik FROM company_profiles WHERE sector <> '' AND cik IS NOT NULL`,
    );

    const names = await plannedNames('sec-submissions');
    expect(names).toHaveLength(MAX_CIKS);
    expect(sp500.length).toBeGreaterThan(490);
    expect(sp500.map((row) => `CIK${row.cik}.json`).filter((name) => !names.includes(name))).toEqual([]);
  });
});
