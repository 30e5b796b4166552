import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRejects } from '../../gateway/import/rejects.ts';
import { runImport } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { SNAPSHOT_DAY } from './real-data.ts';

/** Small hand-made files for the cases the real files do not show. */
describe('importers on hand-made edge cases', () => {
  let store: TestDatabases;
  let folder: string;
  const sql = (text: string, params: unknown[] = []) =>
    store.databases.live.sql.query<Record<string, any>>(text, params);
  const write = async (name: string, content: string) => {
    const path = join(folder, name);
    await writeFile(path, content);
    return path;
  };
  const run = (source: string, files: string[], accession?: string) =>
    runImport(store.databases.live, source, files, { now: SNAPSHOT_DAY, accession });

  beforeAll(async () => {
    store = await createTestDatabases();
    folder = await mkdtemp(join(tmpdir(), 'import-cases-'));
    await store.databases.live.sql.query(
      `INSERT INTO members (bioguide_id, first_name, last_name, full_name, party, chamber, state, committees, name_folded)
       VALUES ('B001236', 'John', 'Boozman', 'John Boozman', 'R', 'senate', 'AR', '{}', 'john boozman john boozman')`,
    );
  });
  afterAll(async () => {
    await store?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const trade = (overrides: Record<string, unknown>) => ({
    transaction_date: '03/02/2021',
    disclosure_date: '03/20/2021',
    owner: 'SP',
    ticker: 'BRK.B',
    asset_description: 'Berkshire Hathaway Inc. Class B',
    asset_type: 'Stock',
    type: 'Sale (Partial)',
    amount: '$15,001 - $50,000',
    senator: 'Boozman, John',
    ptr_link: 'https://efdsearch.senate.gov/search/view/ptr/original/',
    ...overrides,
  });

  it('imports the Senate layout with disclosure dates, and lets a later amendment supersede the original', async () => {
    const original = await write(
      'original.json',
      JSON.stringify([
        trade({}),
        trade({
          ticker: 'SPY160219P00180000',
          asset_type: 'Stock Option',
          asset_description: 'SPDR S&P 500 put',
          type: 'Purchase',
          owner: 'Self',
        }),
        trade({ disclosure_date: '02/01/2021', ticker: 'AAPL' }),
        trade({ transaction_date: '03/02/2035', ticker: 'MSFT' }),
      ]),
    );
    const first = await run('senate-trades', [original]);
    expect(first).toMatchObject({ read: 4, inserted: 2, rejected: 2 });
    const rows = await sql(`SELECT * FROM congressional_trades ORDER BY asset_type`);
    expect(
      rows.map((row) => [row.ticker, row.asset_type, row.trade_type, row.owner, row.bioguide_id, row.member_name]),
    ).toEqual([
      ['SPY', 'option', 'purchase', 'self', 'B001236', 'John Boozman'],
      ['BRK-B', 'stock', 'sale_partial', 'spouse', 'B001236', 'John Boozman'],
    ]);
    expect(rows[0]!.option_detail).toBe('put SPY strike 180 expiring 2016-02-19');
    expect(rows[1]).toMatchObject({ disclosure_lag_days: 18, late: false, amount_low: 15001, amount_high: 50000 });

    const rejects = await listRejects(store.databases.live.sql, 'senate-trades');
    expect(rejects.map((entry) => entry.reason.split(':')[0]).sort()).toEqual([
      'disclosed_before_trade',
      'implausible_year',
    ]);
    expect(rejects.find((entry) => entry.reason.startsWith('disclosed_before_trade'))!.record).toMatchObject({
      ticker: 'AAPL',
    });

    const amendment = await write(
      'amendment.json',
      JSON.stringify([
        trade({ disclosure_date: '05/01/2021', ptr_link: 'https://efdsearch.senate.gov/search/view/ptr/amendment/' }),
      ]),
    );
    expect(await run('senate-trades', [amendment])).toMatchObject({ read: 1, inserted: 1 });
    const versions = await sql(
      `SELECT id, filing_url, superseded_by_id, late FROM congressional_trades WHERE ticker = 'BRK-B' ORDER BY disclosure_date`,
    );
    expect(versions).toHaveLength(2);
    expect(versions[0]!.superseded_by_id).toBe(versions[1]!.id);
    expect(versions[1]).toMatchObject({ superseded_by_id: null, late: true });

    // Importing either file again changes nothing, rejects included.
    expect(await run('senate-trades', [original])).toMatchObject({ inserted: 0, updated: 0, skipped: 2, rejected: 2 });
    expect(await listRejects(store.databases.live.sql, 'senate-trades')).toHaveLength(2);
    const [current] = await sql(`SELECT count(*)::int AS n FROM congressional_trades WHERE superseded_by_id IS NULL`);
    expect(current!.n).toBe(2);
  });

  it('reads the newer Form 4 schema: bare values, true/false booleans, the 10b5-1 box, an open-market buy', async () => {
    const xml = `<?xml version="1.0"?>
      <ownershipDocument>
        <schemaVersion>X0508</schemaVersion><documentType>4</documentType><periodOfReport>2024-05-01</periodOfReport>
        <aff10b5One>true</aff10b5One>
        <issuer><issuerCik>0000320193</issuerCik><issuerName>Apple Inc.</issuerName><issuerTradingSymbol>aapl</issuerTradingSymbol></issuer>
        <reportingOwner>
          <reportingOwnerId><rptOwnerCik>0001214156</rptOwnerCik><rptOwnerName>Doe Jane</rptOwnerName></reportingOwnerId>
          <reportingOwnerRelationship><isDirector>true</isDirector><isOfficer>false</isOfficer></reportingOwnerRelationship>
        </reportingOwner>
        <nonDerivativeTable>
          <nonDerivativeTransaction>
            <securityTitle><value>Common Stock</value></securityTitle>
            <transactionDate><value>2024-05-01</value></transactionDate>
            <transactionCoding><transactionFormType>4</transactionFormType><transactionCode>P</transactionCode></transactionCoding>
            <transactionAmounts>
              <transactionShares><value>10,000</value></transactionShares>
              <transactionPricePerShare><value>170.50</value></transactionPricePerShare>
              <transactionAcquiredDisposedCode><value>A</value></transactionAcquiredDisposedCode>
            </transactionAmounts>
            <postTransactionAmounts><sharesOwnedFollowingTransaction><value>50000</value></sharesOwnedFollowingTransaction></postTransactionAmounts>
            <ownershipNature><directOrIndirectOwnership><value>I</value></directOrIndirectOwnership></ownershipNature>
          </nonDerivativeTransaction>
          <nonDerivativeTransaction>
            <securityTitle><value>Common Stock</value></securityTitle>
            <transactionDate><value>2024-13-01</value></transactionDate>
            <transactionCoding><transactionCode>S</transactionCode></transactionCoding>
            <transactionAmounts><transactionShares><value>5</value></transactionShares>
              <transactionAcquiredDisposedCode><value>D</value></transactionAcquiredDisposedCode></transactionAmounts>
            <ownershipNature><directOrIndirectOwnership><value>D</value></directOrIndirectOwnership></ownershipNature>
          </nonDerivativeTransaction>
        </nonDerivativeTable>
        <ownerSignature><signatureName>Jane Doe</signatureName><signatureDate>2024-05-02</signatureDate></ownerSignature>
      </ownershipDocument>`;
    const path = await write('0000320193-24-000070.xml', xml);
    expect(await run('form4', [path])).toMatchObject({ read: 2, inserted: 1, rejected: 1 });
    const [row] = await sql(`SELECT * FROM insider_transactions WHERE accession_number = '0000320193-24-000070'`);
    expect(row).toMatchObject({
      ticker: 'AAPL',
      owner_title: 'Director',
      transaction_code: 'P',
      shares: 10000,
      price_per_share: 170.5,
      direct_ownership: false,
      rule_10b5_1: true,
      derivative: false,
      sequence: 1,
    });
    const [signal] = await sql(`SELECT * FROM signals WHERE source_key = 'form4:0000320193-24-000070:P'`);
    expect(signal).toMatchObject({ signal_type: 'insider_buy', sentiment: 'BULLISH', ticker: 'AAPL' });
    const [filing] = await sql(`SELECT * FROM filings WHERE accession_number = '0000320193-24-000070'`);
    expect(filing!.fetched_at).not.toBeNull();
    expect(await run('form4', [path])).toMatchObject({ inserted: 0, updated: 0, skipped: 1 });
  });

  it('reads both Treasury layouts and both FRED headers', async () => {
    const older = await write('old.csv', 'Date,1 Mo,3 Mo,10 Yr,30 Yr\n1/2/90,,7.83,7.94,8.00\n10/11/10,,,,\n');
    const native = await write('new.csv', 'Date,"1 Mo","1.5 Month","3 Mo","10 Yr"\n09/01/2023,5.51,5.52,5.53,4.18\n');
    expect(await run('treasury-yields', [older, native])).toMatchObject({
      read: 3,
      inserted: 2,
      skipped: 1,
      rejected: 0,
    });
    const points = await sql(`SELECT date::text AS date, tenor_months, rate_pct FROM yield_curve_points ORDER BY 1, 2`);
    expect(points.map((row) => `${row.date} ${row.tenor_months} ${row.rate_pct}`)).toEqual([
      '1990-01-02 3 7.83',
      '1990-01-02 120 7.94',
      '1990-01-02 360 8',
      '2023-09-01 1 5.51',
      '2023-09-01 3 5.53',
      '2023-09-01 120 4.18',
    ]);
    const fredNew = await write(
      'UNRATE.csv',
      'observation_date,UNRATE\n2024-01-01,3.7\n2024-02-01,.\n2024-03-01,abc\n',
    );
    expect(await run('fred', [fredNew])).toMatchObject({ read: 3, inserted: 1, skipped: 1, rejected: 1 });
    const [rejected] = await listRejects(store.databases.live.sql, 'fred');
    expect(rejected!.reason).toMatch(/^unparseable_value/);
  });
});
