import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveEarningsPreviews, earningsPreviewSignals } from '../../gateway/import/derive/earnings-previews.ts';
import { expectedReport } from '../../gateway/import/derive/report-cadence.ts';
import { runImport } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** `macro` and `earnings_preview` signals derived from the real FRED, Treasury and EDGAR files on import. */
describe('signals derived from the real macro series and Item 2.02 history', () => {
  let store: TestDatabases;
  const sql = <Row = Record<string, any>>(text: string, params: unknown[] = []) =>
    store.databases.live.sql.query<Row>(text, params);
  // created_at as text: a `timestamp` column read by the pg driver would be taken as local time.
  const COLUMNS = `ticker, company_name, signal_type, filing_type, ai_summary, materiality_score, sentiment, urgent,
    source_url, source_key, to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at`;
  const signal = async (key: string) => (await sql(`SELECT ${COLUMNS} FROM signals WHERE source_key = $1`, [key]))[0];
  const snapshot = () =>
    sql(
      `SELECT source_key, ai_summary, materiality_score, sentiment, created_at::text AS created_at FROM signals
        WHERE signal_type IN ('macro', 'earnings_preview') ORDER BY source_key`,
    );
  const signalEvents = async () =>
    (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_events WHERE type = 'signal.created'`))[0]!.n;

  beforeAll(async () => {
    store = await createTestDatabases();
    const db = store.databases.live;
    const options = { now: SNAPSHOT_DAY };
    await runImport(db, 'sec-submissions', [REAL_FILES.submissions], options);
    await runImport(db, 'treasury-yields', REAL_FILES.yields, options);
    await runImport(db, 'fred', REAL_FILES.fred, options);
  });
  afterAll(() => store?.drop());

  it('makes a macro signal of every monthly print that follows its previous month', async () => {
    const counts = await sql(
      `SELECT split_part(source_key, ':', 2) AS series, count(*)::int AS n FROM signals
        WHERE signal_type = 'macro' GROUP BY 1 ORDER BY 1`,
    );
    // Each file is an unbroken monthly run: every print but the first has its previous month (845, 833, 381 rows).
    expect(counts).toEqual([
      { series: '2s10s', n: 45 },
      { series: 'CPIAUCSL', n: 844 },
      { series: 'FEDFUNDS', n: 380 },
      { series: 'UNRATE', n: 832 },
    ]);
  });

  it('reads the May 2017 CPI print as the rule says, from the file’s own values', async () => {
    // CPIAUCSL.csv: 2016-05-01 239.362, 2017-04-01 244.158, 2017-05-01 243.846.
    // Month over month 243.846 / 244.158 - 1 = -0.128 % → -0.1; over the year 243.846 / 239.362 - 1 = 1.873 % → 1.9.
    // |-0.1 - 0.2| = 0.3 ≥ 0.2 → materiality 70; ≤ 0.1 → BULLISH; released the first weekday from 15 June 2017.
    expect(await signal('macro:CPIAUCSL:2017-05-01')).toMatchObject({
      ticker: 'SPY',
      company_name: 'SPDR S&P 500 ETF Trust',
      signal_type: 'macro',
      filing_type: 'FRED',
      materiality_score: 70,
      sentiment: 'BULLISH',
      urgent: false,
      source_url: 'https://fred.stlouisfed.org/series/CPIAUCSL',
      created_at: '2017-06-15T13:30:00Z',
      ai_summary:
        'FRED CPIAUCSL: CPI for May 2017 fell 0.1% from April 2017 (243.846 after 244.158), +1.9% over May 2016, a bullish read for the SPDR S&P 500 ETF Trust (SPY).',
    });
    // UNRATE.csv: April 4.4, May 4.3: -0.1 point, within sampling error; out on the first Friday, 2 June 2017.
    expect(await signal('macro:UNRATE:2017-05-01')).toMatchObject({
      ticker: 'SPY',
      materiality_score: 45,
      sentiment: 'NEUTRAL',
      created_at: '2017-06-02T13:30:00Z',
      ai_summary:
        'FRED UNRATE: the unemployment rate for May 2017 was 4.3%, down 0.1 point from April 2017 (4.4%), a neutral read for the SPDR S&P 500 ETF Trust (SPY).',
    });
    // FEDFUNDS.csv: 2020-03 0.65 after 2020-02 1.58: -0.93 point, an emergency cut: 85, urgent, BULLISH for TLT.
    expect(await signal('macro:FEDFUNDS:2020-03-01')).toMatchObject({
      ticker: 'TLT',
      materiality_score: 85,
      urgent: true,
      sentiment: 'BULLISH',
      created_at: '2020-04-01T13:30:00Z',
    });
  });

  it('marks each 2s10s inversion of the Treasury curve and its end, as the yield-curve route computes the spread', async () => {
    // yield-curve-rates-1990-2023.csv: 3/31/22 2 Yr 2.28, 10 Yr 2.32; 4/1/22 2.44, 2.39 (-0.05): the first
    // inversion since August 2019, a new episode (85); 4/5/22 2.51 / 2.54 ends it after 2 trading days (45).
    expect(await signal('macro:2s10s:start:2022-04-01')).toMatchObject({
      ticker: 'SPY',
      filing_type: 'Treasury',
      materiality_score: 85,
      urgent: true,
      sentiment: 'BEARISH',
      created_at: '2022-04-01T23:00:00Z',
      source_url:
        'https://home.treasury.gov/resource-center/data-chart-center/interest-rates/TextView?type=daily_treasury_yield_curve&field_tdr_date_value=2022',
    });
    expect((await signal('macro:2s10s:start:2022-04-01'))!.ai_summary).toContain(
      '2-year 2.44%, 10-year 2.39%, spread -0.05 points); the last inverted day was 2019-08-29',
    );
    expect(await signal('macro:2s10s:end:2022-04-05')).toMatchObject({ materiality_score: 45, sentiment: 'NEUTRAL' });
    expect((await signal('macro:2s10s:end:2022-04-05'))!.ai_summary).toContain('after 2 trading days');
    // 7/6/22 re-inverted within a year of April: 60; the data ends inverted (2023-09-01: 4.87 / 4.18).
    expect(await signal('macro:2s10s:start:2022-07-06')).toMatchObject({ materiality_score: 60 });
    const [after] = await sql(
      `SELECT count(*)::int AS n FROM signals WHERE source_key LIKE 'macro:2s10s:%:2022-07-0_'`,
    );
    expect(after!.n).toBe(1);
  });

  it('expects Tesla’s next results 8-K from its own Item 2.02 cadence, 14 days ahead', async () => {
    const previews = await sql(`SELECT ${COLUMNS} FROM signals WHERE signal_type = 'earnings_preview'`);
    // Latest Item 2.02: 2022-10-19. A year before it, 2021-10-20 was followed by 2022-01-03 (75 days):
    // expected 2022-10-19 + 75 = 2023-01-02, previewed 14 days before.
    expect(previews).toHaveLength(1);
    expect(previews[0]).toMatchObject({
      ticker: 'TSLA',
      company_name: 'Tesla, Inc.',
      filing_type: '8-K',
      sentiment: 'NEUTRAL',
      materiality_score: 55,
      source_key: 'earnings_preview:0001564590-22-034639',
      source_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000156459022034639/tsla-8k_20221019.htm',
      created_at: '2022-12-19T00:00:00Z',
      ai_summary:
        'Tesla, Inc. (TSLA): next results 8-K (Item 2.02) expected about 2023-01-02, 75 days after its latest, 0001564590-22-034639 of 2022-10-19, as 0001564590-22-000009 of 2022-01-03 followed 0001564590-21-051307 of 2021-10-20 a year earlier.',
    });
    // Before its preview day the preview does not exist yet.
    expect(await earningsPreviewSignals(store.databases.live.sql, new Date('2022-12-18T23:59:59Z'))).toEqual([]);
  });

  it('writes nothing when the same files are imported again, even on a later day', async () => {
    const before = await snapshot();
    const events = await signalEvents();
    const later = { now: new Date(SNAPSHOT_DAY.getTime() + 30 * 86_400_000) };
    const db = store.databases.live;
    await runImport(db, 'fred', REAL_FILES.fred, later);
    await runImport(db, 'treasury-yields', REAL_FILES.yields, later);
    await runImport(db, 'sec-submissions', [REAL_FILES.submissions], later);
    expect(await snapshot()).toEqual(before);
    expect(await signalEvents()).toBe(events);
  });

  it('gives no preview to a short history or to a company that filed on long past its expected date', async () => {
    const filing = (cik: string, accession: string, filedAt: string, items: string[]) =>
      sql(
        `INSERT INTO filings (accession_number, cik, company_name, ticker, form_type, filed_at, items, url)
         VALUES ($1, $2, 'Quarterly Co', 'QQQQ', $3, $4::date, $5, 'https://www.sec.gov/x')`,
        [accession, cik, items.length ? '8-K' : '4', filedAt, items],
      );
    // Two reports: too short a history.
    await filing('0000000001', 'short-1', '2021-02-01', ['2.02']);
    await filing('0000000001', 'short-2', '2021-05-01', ['2.02']);
    // Three quarterly reports (median gap 90 days → 2021-11-26), then a Form 4 in 2022: its cadence is broken.
    for (const [index, day] of ['2021-03-01', '2021-05-30', '2021-08-28'].entries())
      await filing('0000000002', `stale-${index}`, day, ['2.02', '9.01']);
    await filing('0000000002', 'stale-form4', '2022-01-15', []);
    expect(await deriveEarningsPreviews(store.databases.live.sql, SNAPSHOT_DAY)).toMatchObject({ inserted: 0 });
    // The same three reports without the later filing do get one, from the median gap.
    await sql(`DELETE FROM filings WHERE accession_number = 'stale-form4'`);
    const [preview] = (await earningsPreviewSignals(store.databases.live.sql, SNAPSHOT_DAY)).filter(
      (row) => row.ticker === 'QQQQ',
    );
    expect(preview).toMatchObject({ materiality_score: 45, created_at: '2021-11-12T00:00:00.000Z' });
    expect(preview!.ai_summary).toContain('expected about 2021-11-26, 90 days after its latest, stale-2 of 2021-08-28');
  });
});

describe('the expected date of the next Item 2.02 report', () => {
  const filings = (days: string[]) => days.map((filedAt, index) => ({ accession: `a-${index}`, filedAt }));

  it('needs three reports, and counts filings a few days apart as one report', () => {
    expect(expectedReport(filings(['2021-01-28', '2021-04-28']))).toBeNull();
    // The second filing, 3 days after the first, is the same report: two reports only.
    expect(expectedReport(filings(['2021-01-28', '2021-01-31', '2021-04-28']))).toBeNull();
  });

  it('takes the gap after the same report a year earlier over the median of alternating gaps', () => {
    // Deliveries early in the quarter's first month, results three weeks later: gaps alternate 21 and ~70 days.
    const report = expectedReport(
      filings([
        '2021-01-04',
        '2021-01-25',
        '2021-04-05',
        '2021-04-26',
        '2021-07-05',
        '2021-07-26',
        '2021-10-04',
        '2021-10-25',
        '2022-01-03',
      ]),
    );
    // A year before 2022-01-03 came 2021-01-04, followed by 2021-01-25 (21 days).
    expect(report).toMatchObject({ method: 'year_ago', expected: '2022-01-24', gapDays: 21 });
  });
});
