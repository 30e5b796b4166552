import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import type { ImportResult } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** SEC, Treasury and FRED importers on the real files in test/fixtures/real. */
describe('SEC, Treasury and FRED importers on the real files', () => {
  let store: TestDatabases;
  const results: Record<string, ImportResult> = {};
  const sql = (text: string, params: unknown[] = []) =>
    store.databases.live.sql.query<Record<string, any>>(text, params);

  beforeAll(async () => {
    store = await createTestDatabases();
    const db = store.databases.live;
    const options = { now: SNAPSHOT_DAY };
    results.tickers = await runImport(db, 'sec-tickers', [REAL_FILES.tickers], options);
    results.submissions = await runImport(db, 'sec-submissions', [REAL_FILES.submissions], options);
    // The file name carries no accession number: the test gives a stand-in one, as --accession does.
    results.form4 = await runImport(db, 'form4', [REAL_FILES.form4], { ...options, accession: '0009999999-22-000001' });
    results.index = await runImport(db, 'edgar-index', [REAL_FILES.index], options);
    results.yields = await runImport(db, 'treasury-yields', REAL_FILES.yields, options);
    results.fred = await runImport(db, 'fred', REAL_FILES.fred, options);
  });
  afterAll(() => store?.drop());

  it('links every ticker to its CIK and company', async () => {
    expect(results.tickers).toMatchObject({ read: 9610, inserted: 9610, rejected: 0 });
    const rows = await sql(
      `SELECT ticker, cik, company_name FROM company_profiles WHERE ticker IN ('MSFT', 'BRK-B', 'NA') ORDER BY ticker`,
    );
    expect(rows).toEqual([
      { ticker: 'BRK-B', cik: '0001067983', company_name: 'BERKSHIRE HATHAWAY INC' },
      { ticker: 'MSFT', cik: '0000789019', company_name: 'MICROSOFT CORP' },
      { ticker: 'NA', cik: '0001872302', company_name: 'Nano Labs Ltd' },
    ]);
  });

  it('turns Tesla’s 8-Ks into sec_filing signals scored by their items, and its Form 4s into filings to fetch', async () => {
    const recent = (
      JSON.parse(await readFile(REAL_FILES.submissions, 'utf8')) as { filings: { recent: { form: string[] } } }
    ).filings.recent;
    const kept = recent.form.filter((form) => ['8-K', '8-K/A', '4', '4/A'].includes(form)).length;
    expect(results.submissions).toMatchObject({
      read: recent.form.length,
      inserted: kept,
      skipped: recent.form.length - kept,
      rejected: 0,
    });
    const [counts] = await sql(
      `SELECT count(*) FILTER (WHERE form_type = '8-K')::int AS eight_k, count(*) FILTER (WHERE form_type = '4')::int AS form4,
              count(*) FILTER (WHERE form_type = '4' AND fetched_at IS NULL)::int AS to_fetch
       FROM filings WHERE cik = '0001318605'`,
    );
    expect(counts).toEqual({ eight_k: 163, form4: 502, to_fetch: 502 });
    const signals = await sql(`SELECT * FROM signals WHERE signal_type = 'sec_filing' AND ticker = 'TSLA'`);
    expect(signals).toHaveLength(recent.form.filter((form) => form.startsWith('8-K')).length);
    // An earnings 8-K (2.02 with exhibits) outranks a shareholder-vote 8-K (5.07), which outranks exhibits alone.
    const byItems = await sql(
      `SELECT f.items, s.materiality_score, s.urgent FROM signals s JOIN filings f ON s.source_key = '8-K:' || f.accession_number
       WHERE f.cik = '0001318605'`,
    );
    const score = (items: string[]) =>
      byItems.find((row) => JSON.stringify(row.items) === JSON.stringify(items))?.materiality_score;
    expect(score(['2.02', '9.01'])).toBeGreaterThan(score(['5.07'])!);
    for (const row of byItems) {
      const items = row.items as string[];
      if (items.some((item) => ['1.01', '1.03', '2.01', '2.02', '4.02', '5.02'].includes(item))) {
        expect(row.materiality_score).toBeGreaterThan(30);
      }
      if (items.length && items.every((item) => ['8.01', '9.01'].includes(item)))
        expect(row.materiality_score).toBeLessThanOrEqual(32);
    }
  });

  it('reads the Snowflake Form 4 transaction by transaction and makes an insider_sell signal', async () => {
    expect(results.form4).toMatchObject({ read: 7, inserted: 7, rejected: 0 });
    const rows = await sql(`SELECT * FROM insider_transactions ORDER BY derivative, sequence`);
    expect(rows.map((row) => row.transaction_code).join('')).toBe('MSSSSSM');
    expect(rows[1]).toMatchObject({
      ticker: 'SNOW',
      issuer_cik: '0001640147',
      owner_name: 'Scarpelli Michael',
      owner_title: 'Chief Financial Officer',
      security_title: 'Class A Common Stock',
      shares: 73170,
      price_per_share: 150.841,
      acquired_disposed: 'D',
      shares_owned_after: 227927,
      direct_ownership: true,
      rule_10b5_1: false,
      derivative: false,
    });
    expect(rows[6]).toMatchObject({
      derivative: true,
      security_title: 'Stock Option (Right to Buy)',
      shares: 200000,
      price_per_share: 0,
    });
    // Table II's terms: the exercise date is only a footnote in this filing, so it stays null.
    const options = await sql(
      `SELECT derivative, conversion_or_exercise_price, to_char(exercise_date, 'YYYY-MM-DD') AS exercise_date,
              to_char(expiration_date, 'YYYY-MM-DD') AS expiration_date, underlying_security_title, underlying_shares
         FROM insider_transactions ORDER BY derivative, sequence`,
    );
    expect(options[6]).toEqual({
      derivative: true,
      conversion_or_exercise_price: 8.88,
      exercise_date: null,
      expiration_date: '2029-08-26',
      underlying_security_title: 'Class A Common Stock',
      underlying_shares: 200000,
    });
    for (const stock of options.slice(0, 6)) {
      expect(Object.values(stock).filter((value) => value !== null)).toEqual([false]);
    }
    const signals = await sql(`SELECT * FROM signals WHERE ticker = 'SNOW'`);
    expect(signals.map((row) => row.signal_type)).toEqual(['insider_sell']);
    const sold = rows.filter((row) => row.transaction_code === 'S').reduce((total, row) => total + row.shares, 0);
    expect(signals[0]!.ai_summary).toContain(`sold ${sold.toLocaleString('en-US')} shares of SNOW`);
    expect(signals[0]).toMatchObject({ sentiment: 'BEARISH', source_key: 'form4:0009999999-22-000001:S' });
  });

  it('records each filing of the daily index once, to fetch later', async () => {
    expect(results.index).toMatchObject({ read: 4084, rejected: 0 });
    // One filing per accession number, however many filers list it, each waiting to be fetched.
    const listed = [...new Set((await readFile(REAL_FILES.index, 'utf8')).match(/\d{10}-\d{2}-\d{6}/g))];
    const [filings] = await sql(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE fetched_at IS NULL)::int AS to_fetch FROM filings WHERE accession_number = ANY($1)`,
      [listed],
    );
    expect(filings).toEqual({ n: listed.length, to_fetch: listed.length });
    // A Form 4 keeps its issuer (the filer with a ticker), not the reporting person listed beside it.
    const [snapshot] = await sql(
      `SELECT count(*)::int AS n FROM filings WHERE accession_number = ANY($1) AND form_type = '4' AND ticker IS NOT NULL`,
      [listed],
    );
    expect(snapshot!.n).toBeGreaterThan(0);
    const again = await runImport(store.databases.live, 'edgar-index', [REAL_FILES.index], { now: SNAPSHOT_DAY });
    expect(again).toMatchObject({ inserted: 0, updated: 0, skipped: 4084 });
  });

  it('imports both Treasury layouts, leaving tenors that did not exist yet empty', async () => {
    expect(results.yields).toMatchObject({ read: 8507 + 169, rejected: 0 });
    const curve = await sql(
      `SELECT tenor_months, rate_pct FROM yield_curve_points WHERE date = '2023-12-29' ORDER BY tenor_months`,
    );
    expect(curve.map((row) => [row.tenor_months, row.rate_pct])).toEqual([
      [1, 5.6],
      [2, 5.59],
      [3, 5.4],
      [4, 5.41],
      [6, 5.26],
      [12, 4.79],
      [24, 4.23],
      [36, 4.01],
      [60, 3.84],
      [84, 3.88],
      [120, 3.88],
      [240, 4.2],
      [360, 4.03],
    ]);
    const [early] = await sql(
      `SELECT count(*)::int AS n, min(tenor_months) AS shortest FROM yield_curve_points WHERE date = '1990-01-02'`,
    );
    // 1990: no 1-, 2- or 4-month bills and no 20-year bond yet.
    expect(early).toEqual({ n: 9, shortest: 3 });
    const [september] = await sql(
      `SELECT rate_pct FROM yield_curve_points WHERE date = '2023-09-01' AND tenor_months = 120`,
    );
    expect(september!.rate_pct).toBe(4.18);
    const [blank] = await sql(`SELECT count(*)::int AS n FROM yield_curve_points WHERE date = '2010-10-11'`);
    expect(blank!.n).toBe(0);
  });

  it('imports the FRED series, skipping "." holidays', async () => {
    expect(results.fred).toMatchObject({ read: 381 + 845 + 833 + 11635 + 15395, skipped: 491 + 659, rejected: 0 });
    const rows = await sql(`SELECT series_id, count(*)::int AS n FROM macro_indicators GROUP BY 1 ORDER BY 1`);
    expect(rows).toEqual([
      { series_id: 'CPIAUCSL', n: 845 },
      { series_id: 'DGS10', n: 15395 - 659 },
      { series_id: 'DGS2', n: 11635 - 491 },
      { series_id: 'FEDFUNDS', n: 381 },
      { series_id: 'UNRATE', n: 833 },
    ]);
    const [first] = await sql(`SELECT value FROM macro_indicators WHERE series_id = 'DGS10' AND date = '1962-01-02'`);
    expect(first!.value).toBe(4.06);
  });
});
