import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { tickerOfFile } from '../../gateway/import/sources/prices.ts';
import { canonicalTicker } from '../../subgraphs/platform/tickers.ts';
import type { ImportResult } from '../../gateway/import/run.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { expectError } from '../support/expect-error.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** The forms of one class share a client may type: all are BRK-B (docs/api.md "Ticker symbols"). */
const BERKSHIRE_FORMS = ['BRK-B', 'BRK.B', 'brk.b', 'BRK/B'];

describe('ticker forms', () => {
  it('makes every spelling of a class share the dash form', () => {
    expect(BERKSHIRE_FORMS.map(canonicalTicker)).toEqual(['BRK-B', 'BRK-B', 'BRK-B', 'BRK-B']);
    expect(canonicalTicker(' aapl ')).toBe('AAPL');
  });

  it('reads a price file’s ticker from its name', () => {
    expect(
      ['/data/AAPL.US_D1.csv', 'BRK.B.US_D1.csv', 'msft.csv', 'nvda.us.txt', 'BF-B_daily.CSV'].map(tickerOfFile),
    ).toEqual(['AAPL', 'BRK-B', 'MSFT', 'NVDA', 'BF-B']);
    expect(() => tickerOfFile('prices/_D1.csv')).toThrow(/no ticker in the file name/);
  });
});

/** S&P 500 profiles, daily prices and one ticker form, on the real files in test/fixtures/real. */
describe('profiles, prices and ticker forms on the real files', () => {
  let service: TestService;
  let key: string;
  const first: Record<string, ImportResult> = {};
  const again: Record<string, ImportResult> = {};
  const sql = <Row = Record<string, any>>(text: string, params: unknown[] = []) =>
    service.databases.live.sql.query<Row>(text, params);

  beforeAll(async () => {
    service = await startTestService();
    const live = service.databases.live;
    const options = { now: SNAPSHOT_DAY };
    await runImport(live, 'members', REAL_FILES.members, options);
    await runImport(live, 'sec-tickers', [REAL_FILES.tickers], options);
    first.sp500 = await runImport(live, 'sp500-constituents', [REAL_FILES.sp500], options);
    first.prices = await runImport(live, 'prices', REAL_FILES.prices, options);
    await runImport(live, 'senate-trades', [REAL_FILES.senate], options);
    await runImport(live, 'house-trades', [REAL_FILES.house], options);
    // EDGAR after the S&P list: its SIC description must not replace the GICS sub-industry.
    await runImport(live, 'sec-submissions', [REAL_FILES.submissions], options);
    again.sp500 = await runImport(live, 'sp500-constituents', [REAL_FILES.sp500], options);
    again.prices = await runImport(live, 'prices', REAL_FILES.prices, options);
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  });
  afterAll(() => service?.stop());

  it('merges every S&P 500 constituent into a profile, and reports a re-import as skipped', async () => {
    expect(first.sp500).toMatchObject({ read: 503, rejected: 0 });
    // SEC's company_tickers.json lists nearly all of them first: those are updates, the rest inserts.
    expect(first.sp500!.inserted + first.sp500!.updated).toBe(503);
    expect(again.sp500).toMatchObject({ read: 503, inserted: 0, updated: 0, skipped: 503, rejected: 0 });
    const [profiles] = await sql(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE sector <> '' AND founded IS NOT NULL)::int AS full,
              count(*) FILTER (WHERE market_cap IS NOT NULL OR ceo IS NOT NULL)::int AS invented
         FROM company_profiles WHERE description LIKE '%is an S&P 500 company in%'`,
    );
    expect(profiles).toEqual({ n: 503, full: 503, invented: 0 });
  });

  it('moves updated_at only when a profile changes', async () => {
    const before = await sql<{ updated_at: Date }>(`SELECT updated_at FROM company_profiles WHERE ticker = 'MMM'`);
    await runImport(service.databases.live, 'sp500-constituents', [REAL_FILES.sp500], { now: SNAPSHOT_DAY });
    const unchanged = await sql<{ updated_at: Date }>(`SELECT updated_at FROM company_profiles WHERE ticker = 'MMM'`);
    expect(unchanged[0]!.updated_at).toEqual(before[0]!.updated_at);
    // A stale sector (as after a GICS reclassification) is corrected by the next import, and dated.
    await sql(`UPDATE company_profiles SET sector = 'Stale' WHERE ticker = 'MMM'`);
    const result = await runImport(service.databases.live, 'sp500-constituents', [REAL_FILES.sp500], {
      now: SNAPSHOT_DAY,
    });
    expect(result).toMatchObject({ updated: 1, skipped: 502 });
    const [after] = await sql<{ sector: string; updated_at: Date }>(
      `SELECT sector, updated_at FROM company_profiles WHERE ticker = 'MMM'`,
    );
    expect(after!.sector).toBe('Industrials');
    expect(after!.updated_at.getTime()).toBeGreaterThan(before[0]!.updated_at.getTime());
  });

  it('enriches AAPL with its GICS sector and a description made of imported facts only', async () => {
    const response = await service.get('/api/enrich/AAPL', key);
    expect(response.status).toBe(200);
    const [stored] = await sql(`SELECT * FROM company_profiles WHERE ticker = 'AAPL'`);
    expect(response.body).toMatchObject({
      ticker: 'AAPL',
      company_name: stored!.company_name,
      sector: 'Information Technology',
      industry: 'Technology Hardware, Storage & Peripherals',
      headquarters: 'Cupertino, California',
      founded: '1977',
      cik: '0000320193',
      market_cap: null,
      ceo: null,
      description:
        'Apple Inc. (AAPL) is an S&P 500 company in Information Technology — Technology Hardware, Storage & Peripherals, headquartered in Cupertino, California, founded 1977.',
    });
  });

  it('keeps SEC’s name and the GICS sub-industry over the SIC description, whichever source ran last', async () => {
    const rows = await sql(
      `SELECT ticker, company_name, industry, founded FROM company_profiles WHERE ticker IN ('TSLA', 'ABBV') ORDER BY ticker`,
    );
    expect(rows).toEqual([
      { ticker: 'ABBV', company_name: 'AbbVie Inc.', industry: 'Biotechnology', founded: '2013 (1888)' },
      { ticker: 'TSLA', company_name: 'Tesla, Inc.', industry: 'Automobile Manufacturers', founded: '2003' },
    ]);
  });

  it('imports daily prices, rejecting weekend rows with a reason, and skips them unchanged on re-import', async () => {
    const [stored] = await sql<{ n: number; weekend: number; noisy: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE extract(isodow FROM date) IN (6, 7))::int AS weekend,
              count(*) FILTER (WHERE round(close::numeric, 4) <> close::numeric)::int AS noisy
         FROM daily_prices WHERE ticker IN ('AAPL', 'NVDA')`,
    );
    // 300 rows a file, 22 of them on a Saturday or Sunday (test/fixtures/real/SOURCES.md).
    expect(first.prices).toMatchObject({ read: 600, inserted: 556, updated: 0, skipped: 0, rejected: 44 });
    expect(stored).toEqual({ n: 556, weekend: 0, noisy: 0 });
    expect(again.prices).toMatchObject({ read: 600, inserted: 0, updated: 0, skipped: 556, rejected: 44 });
    const [rejects] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM import_rejects WHERE source = 'prices' AND reason LIKE 'non_trading_day:%'`,
    );
    expect(rejects!.n).toBe(44);
  });

  it('quotes AAPL from its last two imported closes, over REST and GraphQL', async () => {
    const [latest, previous] = await sql<{ date: string; close: number }>(
      `SELECT date::text AS date, close FROM daily_prices WHERE ticker = 'AAPL' ORDER BY date DESC LIMIT 2`,
    );
    const expected = {
      price: latest!.close,
      change: Math.round((latest!.close - previous!.close) * 10_000) / 10_000,
      changePct: Math.round(((latest!.close - previous!.close) / previous!.close) * 10_000) / 100,
      as_of: latest!.date,
      date: latest!.date,
      previousClose: previous!.close,
      previousDate: previous!.date,
    };
    // The last rows of the file: 2023-12-19 close 196.94, 2023-12-20 close 194.91.
    expect(expected).toMatchObject({ price: 194.91, as_of: '2023-12-20', change: -2.03, changePct: -1.03 });
    const search = await service.get('/api/search?q=aapl', key);
    expect(search.body.quote).toEqual(expected);
    const added = await service.request('POST', '/api/watchlist', { key, body: { ticker: 'AAPL' } });
    expect(added.body.quote).toEqual(expected);
    const data = await service.graphql(`{ ticker(symbol: "AAPL") { quote { price change asOf } } }`, {}, key);
    expect(data.ticker.quote).toEqual({ price: expected.price, change: expected.change, asOf: expected.as_of });
    // No prices, no quote: a ticker with a profile only.
    expect((await service.get('/api/search?q=MMM', key)).body.quote).toBeNull();
  });

  it('answers BRK.B, BRK-B, brk.b and BRK/B with identical ticker search results', async () => {
    const bodies = await Promise.all(
      BERKSHIRE_FORMS.map((form) => service.get(`/api/search?q=${encodeURIComponent(form)}`, key)),
    );
    for (const response of bodies) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual(bodies[0]!.body);
    }
    expect(bodies[0]!.body).toMatchObject({
      ticker: 'BRK-B',
      found: true,
      profile: { companyName: 'BERKSHIRE HATHAWAY INC', sector: 'Financials', industry: 'Multi-Sector Holdings' },
    });
    const enriched = await Promise.all(
      BERKSHIRE_FORMS.map((form) => service.get(`/api/enrich/${encodeURIComponent(form)}`, key)),
    );
    for (const response of enriched) expect(response.body).toEqual({ ...enriched[0]!.body, ticker: 'BRK-B' });
    const data = await service.graphql(`{ companyProfile(ticker: "brk/b") { ticker cik } }`, {}, key);
    expect(data.companyProfile).toEqual({ ticker: 'BRK-B', cik: '0001067983' });
  });

  it('filters congressional trades by any form of the ticker', async () => {
    const [stored] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM congressional_trades WHERE ticker = 'BRK-B' AND superseded_by_id IS NULL`,
    );
    // Both chambers' files hold Berkshire trades: the House writes BRK.B, the Senate BRK-B.
    expect(stored!.n).toBeGreaterThan(60);
    const pages = await Promise.all(
      BERKSHIRE_FORMS.map((form) =>
        service.get(`/api/congressional-trades?ticker=${encodeURIComponent(form)}&from=1990-01-01&limit=200`, key),
      ),
    );
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(stored!.n);
      expect(page.body).toEqual(pages[0]!.body);
    }
    expect(new Set(pages[0]!.body.trades.map((trade: { ticker: string }) => trade.ticker))).toEqual(new Set(['BRK-B']));
    const data = await service.graphql(
      `{ congressionalTrades(ticker: "brk.b", from: "1990-01-01", limit: 1) { pageInfo { total } } }`,
      {},
      key,
    );
    expect(data.congressionalTrades.pageInfo.total).toBe(stored!.n);
  });

  it('keeps one watchlist entry for every form of the ticker', async () => {
    const { key: watcher } = await service.createKey({ plan: 'institutional', mode: 'live' });
    const added = await service.request('POST', '/api/watchlist', { key: watcher, body: { ticker: 'BRK.B' } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ ticker: 'BRK-B', company_name: 'BERKSHIRE HATHAWAY INC', quote: null });
    for (const form of ['brk-b', 'BRK/B']) {
      const repeated = await service.request('POST', '/api/watchlist', { key: watcher, body: { ticker: form } });
      expect(repeated.status).toBe(200);
      expect(repeated.body).toEqual({ ...added.body, created: false });
    }
    const listed = await service.get('/api/watchlist', watcher);
    expect(listed.body.watchlist.map((entry: { ticker: string }) => entry.ticker)).toEqual(['BRK-B']);
    const removed = await service.request('DELETE', `/api/watchlist/${encodeURIComponent('brk.b')}`, { key: watcher });
    expect(removed.body).toEqual({ ticker: 'BRK-B', removed: true });
    expect((await service.get('/api/watchlist', watcher)).body.watchlist).toEqual([]);
  });

  it('joins a federated company written BRK.B to the BRK-B market data', async () => {
    // A verticals record keeps the ticker as it was entered; the markets side reads it in the stored form.
    const [company] = await sql<{ id: number }>(
      `INSERT INTO companies (name, industry, industry_name, revenue_usd, employees, state, city, website, ticker,
                              founded_year, ai_score, decision_maker, decision_maker_title, decision_maker_email)
       VALUES ('Berkshire Hathaway Inc.', 'insurance', 'Insurance', 1, 1, 'NE', 'Omaha', 'https://example.com',
               'BRK.B', 1839, 50, '', '', '') RETURNING id`,
    );
    const data = await service.graphql(
      `query ($id: String!) { company(id: $id) { ticker profile { ticker industry } congressionalTrades(limit: 50) { ticker } } }`,
      { id: `b2b_${company!.id}` },
      key,
    );
    const [trades] = await sql<{ n: number }>(
      `SELECT least(count(*), 50)::int AS n FROM congressional_trades WHERE ticker = 'BRK-B' AND superseded_by_id IS NULL`,
    );
    expect(data.company.ticker).toBe('BRK.B');
    expect(data.company.profile).toEqual({ ticker: 'BRK-B', industry: 'Multi-Sector Holdings' });
    expect(data.company.congressionalTrades).toHaveLength(trades!.n);
  });

  it('still refuses what is not a ticker with a 400', async () => {
    for (const q of ['BRK..B', 'BRK-', '.B', 'ABCDEFGHIJK', 'BRK B']) {
      expectError(await service.request('GET', `/api/search?q=${encodeURIComponent(q)}`), 400, 'invalid_parameter', [
        'q',
      ]);
    }
    expectError(await service.get('/api/congressional-trades?ticker=BRK%2F%2FB', key), 400, 'invalid_parameter', [
      'ticker',
    ]);
  });
});
