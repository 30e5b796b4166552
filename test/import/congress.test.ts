import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import type { ImportResult } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** Members and congressional trades from the real files in test/fixtures/real, into a fresh live database. */
describe('congress importers on the real files', () => {
  let store: TestDatabases;
  const results: Record<string, ImportResult> = {};
  const sql = (text: string, params: unknown[] = []) =>
    store.databases.live.sql.query<Record<string, any>>(text, params);

  beforeAll(async () => {
    store = await createTestDatabases();
    const db = store.databases.live;
    results.members = await runImport(db, 'members', REAL_FILES.members, { now: SNAPSHOT_DAY });
    // Company tickers first, as a full load does: they tell the class share "BRKB" is "BRK-B".
    await runImport(db, 'sec-tickers', [REAL_FILES.tickers], { now: SNAPSHOT_DAY });
    results.senate = await runImport(db, 'senate-trades', [REAL_FILES.senate], { now: SNAPSHOT_DAY });
    results.house = await runImport(db, 'house-trades', [REAL_FILES.house], { now: SNAPSHOT_DAY });
  });
  afterAll(() => store?.drop());

  it('imports every legislator with party, chamber, state, district and committees', async () => {
    expect(results.members).toMatchObject({ read: 537, inserted: 537, rejected: 0 });
    const [wyden] = await sql(`SELECT * FROM members WHERE bioguide_id = 'W000779'`);
    expect(wyden).toMatchObject({ full_name: 'Ron Wyden', party: 'D', chamber: 'senate', state: 'OR', district: null });
    expect(wyden!.committees).toContain('Finance');
    const [alford] = await sql(`SELECT * FROM members WHERE full_name = 'Mark Alford'`);
    expect(alford).toMatchObject({ party: 'R', chamber: 'house', state: 'MO', district: 'MO04' });
    // The name people use: Jack Reed (first name John), Ted Cruz.
    const named = await sql(`SELECT full_name FROM members WHERE bioguide_id IN ('R000122', 'C001098') ORDER BY 1`);
    expect(named.map((row) => row.full_name)).toEqual(['Jack Reed', 'Ted Cruz']);
    const parties = await sql(`SELECT DISTINCT party FROM members ORDER BY 1`);
    expect(parties.map((row) => row.party)).toEqual(['D', 'I', 'R']);
  });

  it('imports the Senate file, rejecting exactly the scanned-PDF placeholders', async () => {
    const raw = JSON.parse(await readFile(REAL_FILES.senate, 'utf8')) as { asset_type: string }[];
    const scanned = raw.filter((row) => row.asset_type === 'PDF Disclosed Filing').length;
    expect(results.senate).toMatchObject({ read: raw.length, rejected: scanned, inserted: raw.length - scanned });
    const rejects = await sql(
      `SELECT split_part(reason, ':', 1) AS code, count(*)::int AS n FROM import_rejects WHERE source = 'senate-trades' GROUP BY 1`,
    );
    expect(rejects).toEqual([{ code: 'scanned_filing', n: scanned }]);
    const [count] = await sql(`SELECT count(*)::int AS n FROM congressional_trades WHERE source = 'senate-trades'`);
    expect(count!.n).toBe(raw.length - scanned);
  });

  it('keeps the first Senate record field by field, matched to Ron Wyden', async () => {
    const [trade] = await sql(
      `SELECT * FROM congressional_trades WHERE source = 'senate-trades' AND ticker = 'BYND' AND trade_date = '2020-11-10'`,
    );
    expect(trade).toMatchObject({
      bioguide_id: 'W000779',
      member_name: 'Ron Wyden',
      party: 'D',
      chamber: 'senate',
      asset_description: 'Beyond Meat, Inc.',
      asset_type: 'stock',
      trade_type: 'sale',
      owner: 'spouse',
      amount_range: '$50,001 - $100,000',
      amount_low: 50001,
      amount_high: 100000,
      disclosure_date: null,
      late: false,
      superseded_by_id: null,
      filing_url: 'https://efdsearch.senate.gov/search/view/ptr/a0010f4a-c31a-4824-8b6d-6399b3ccb6f0/',
    });
  });

  it('matches every spelling of a sitting senator to one member, and leaves former senators unmatched', async () => {
    // "Ron L Wyden", "Ron Wyden" and "Ronald L Wyden" are one member; so are "Rafael E Cruz" and "Rafael Edward (Ted) Cruz".
    const wyden = await sql(`SELECT DISTINCT member_name FROM congressional_trades WHERE bioguide_id = 'W000779'`);
    expect(wyden.map((row) => row.member_name)).toEqual(['Ron Wyden']);
    const [wydenCount] = await sql(`SELECT count(*)::int AS n FROM congressional_trades WHERE bioguide_id = 'W000779'`);
    const raw = JSON.parse(await readFile(REAL_FILES.senate, 'utf8')) as { senator: string; asset_type: string }[];
    expect(wydenCount!.n).toBe(
      raw.filter((row) => /wyden/i.test(row.senator) && row.asset_type !== 'PDF Disclosed Filing').length,
    );
    const [cruz] = await sql(
      `SELECT count(DISTINCT bioguide_id)::int AS members, min(bioguide_id) AS id FROM congressional_trades WHERE member_name = 'Ted Cruz'`,
    );
    expect(cruz).toEqual({ members: 1, id: 'C001098' });
    // "Kelly Loeffler" (former senator) is not Senator Mark Kelly; "David A Perdue , Jr" becomes "David Perdue".
    const former = await sql(
      `SELECT member_name, count(*)::int AS n FROM congressional_trades WHERE source = 'senate-trades' AND bioguide_id IS NULL GROUP BY 1`,
    );
    const names = former.map((row) => row.member_name);
    expect(names).toEqual(expect.arrayContaining(['Kelly Loeffler', 'David Perdue', 'Thomas Carper', 'Pat Roberts']));
    const [kelly] = await sql(`SELECT count(*)::int AS n FROM congressional_trades WHERE bioguide_id = 'K000377'`);
    expect(kelly!.n).toBe(0);
  });

  it('rejects the House file’s known defects with their reasons and imports the rest', async () => {
    expect(results.house).toMatchObject({ read: 10224, rejected: 41, inserted: 10183 });
    const rejects = await sql(
      `SELECT split_part(reason, ':', 1) AS code, count(*)::int AS n FROM import_rejects WHERE source = 'house-trades' GROUP BY 1 ORDER BY 1`,
    );
    expect(rejects).toEqual([
      { code: 'disclosed_before_trade', n: 19 },
      { code: 'implausible_year', n: 20 },
      { code: 'unparseable_amount', n: 1 },
      { code: 'unparseable_date', n: 1 },
    ]);
    const years = await sql(
      `SELECT record->>'disclosure_date' AS d, record->>'transaction_date' AS t FROM import_rejects WHERE reason LIKE 'implausible_year%'`,
    );
    expect(years.filter((row) => row.d.endsWith('1935'))).toHaveLength(18);
    expect(years.filter((row) => row.t.endsWith('2035'))).toHaveLength(1);
    const [amount] = await sql(
      `SELECT record->>'amount' AS amount FROM import_rejects WHERE reason LIKE 'unparseable_amount%'`,
    );
    expect(amount!.amount).toBe('$3,001 - $15,000');
    const [stored] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades WHERE source = 'house-trades' AND (trade_date > disclosure_date OR trade_date < '2008-01-01')`,
    );
    expect(stored!.n).toBe(0);
  });

  it('keeps the first House record field by field, with the state from its district', async () => {
    const [trade] = await sql(
      `SELECT t.*, m.state FROM congressional_trades t JOIN members m USING (bioguide_id)
       WHERE t.ticker = 'AMZN' AND t.member_name = 'Mark Alford' AND t.trade_date = '2026-03-16'`,
    );
    expect(trade).toMatchObject({
      party: 'R',
      chamber: 'house',
      state: 'MO',
      asset_description: 'Amazon.com, Inc. - Common Stock',
      asset_type: 'stock',
      trade_type: 'sale_partial',
      owner: 'self',
      amount_low: 1001,
      amount_high: 15000,
      disclosure_lag_days: 0,
      late: false,
      filing_url: 'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2026/20034201.pdf',
    });
    const owners = await sql(`SELECT DISTINCT owner FROM congressional_trades ORDER BY 1`);
    expect(owners.map((row) => row.owner)).toEqual(['dependent', 'joint', 'self', 'spouse']);
    const [brk] = await sql(
      `SELECT count(*) FILTER (WHERE ticker IN ('BRK.B', 'BRKB'))::int AS other_forms, count(*) FILTER (WHERE ticker = 'BRK-B')::int AS dash FROM congressional_trades`,
    );
    expect(brk).toMatchObject({ other_forms: 0 });
    expect(brk!.dash).toBeGreaterThan(0);
  });

  it('lets a later filing that repeats a trade supersede the earlier one', async () => {
    // David J. Taylor filed document 20033916 and then 20033918 on 2026-01-30 with the same AAPL purchase.
    const rows = await sql(
      `SELECT filing_url, superseded_by_id, id FROM congressional_trades
       WHERE member_name = 'David Taylor' AND ticker = 'AAPL' AND trade_date = '2026-01-16' ORDER BY filing_url`,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.filing_url).toMatch(/20033916/);
    expect(rows[0]!.superseded_by_id).toBe(rows[1]!.id);
    expect(rows[1]!.superseded_by_id).toBeNull();
    // A superseding trade is never itself superseded, and it always comes from another filing.
    const [chains] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades a JOIN congressional_trades b ON a.superseded_by_id = b.id
       WHERE b.superseded_by_id IS NOT NULL OR a.filing_url = b.filing_url`,
    );
    expect(chains!.n).toBe(0);
  });

  it('changes nothing when the same files are imported again', async () => {
    const before = await sql(
      `SELECT count(*)::int AS trades, count(superseded_by_id)::int AS superseded FROM congressional_trades`,
    );
    const [rejectsBefore] = await sql(`SELECT count(*)::int AS n FROM import_rejects`);
    const again = await runImport(store.databases.live, 'house-trades', [REAL_FILES.house], { now: SNAPSHOT_DAY });
    expect(again).toMatchObject({ read: 10224, inserted: 0, updated: 0, skipped: 10183, rejected: 41 });
    expect(
      await sql(`SELECT count(*)::int AS trades, count(superseded_by_id)::int AS superseded FROM congressional_trades`),
    ).toEqual(before);
    expect(await sql(`SELECT count(*)::int AS n FROM import_rejects`)).toEqual([rejectsBefore]);
  });
});
