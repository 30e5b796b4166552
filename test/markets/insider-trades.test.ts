import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { expectError } from '../support/expect-error.ts';

/**
 * GET /api/insider-trades and `insiderTrades` on the real Snowflake Form 4 (7 transactions, one of them an option
 * exercise) and a second filing made from it for another issuer, insider and day, so every filter has rows to
 * leave out. Expected answers are the database's own.
 */
let service: TestService;
let key: string;
let folder: string;

const SNOW_ACCESSION = '0001209191-22-068411';
const OTHER_ACCESSION = '0000320193-24-000071';

/** Ids matching a SQL condition, newest transaction first (the list's order). */
async function ids(where = 'TRUE', params: unknown[] = []): Promise<string[]> {
  const rows = await service.databases.live.sql.query<{ id: string }>(
    `SELECT id FROM insider_transactions WHERE ${where} ORDER BY transaction_date DESC, id DESC`,
    params,
  );
  return rows.map((row) => row.id);
}

const idsOf = (body: { trades: { id: string }[] }) => body.trades.map((trade) => trade.id);

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300, liveScale: 300 });
  folder = await mkdtemp(join(tmpdir(), 'insider-trades-'));
  const real = await readFile(REAL_FILES.form4, 'utf8');
  const snow = join(folder, `${SNOW_ACCESSION}.xml`);
  await writeFile(snow, real);
  // Another filing: Apple's ticker and CIK, another insider, a later day, the exercise turned into a gift.
  const other = real
    .replace('<issuerTradingSymbol>SNOW', '<issuerTradingSymbol>AAPL')
    .replace('<issuerCik>0001640147', '<issuerCik>0000320193')
    .replace('<rptOwnerName>Scarpelli Michael', '<rptOwnerName>Doe Jane Q')
    .replace('<rptOwnerCik>0001402349', '<rptOwnerCik>0009999998')
    .replaceAll('<value>2022-12-13</value>', '<value>2024-03-05</value>')
    .replace('<transactionCode>M</transactionCode>', '<transactionCode>G</transactionCode>');
  const apple = join(folder, `${OTHER_ACCESSION}.xml`);
  await writeFile(apple, other);
  // The live database is seeded too (its companies are what `company` resolves to); its generated filings are
  // removed so these tests see exactly the two imported ones. The sandbox's are tested below.
  await service.databases.live.sql.query('DELETE FROM insider_transactions');
  const options = { now: SNAPSHOT_DAY };
  expect(await runImport(service.databases.live, 'form4', [snow, apple], options)).toMatchObject({ rejected: 0 });
  ({ key } = await service.createKey({ plan: 'analyst', mode: 'live' }));
});
afterAll(async () => {
  await service?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('GET /api/insider-trades', () => {
  it('lists every transaction newest first with the filing’s fields and a derivative’s terms', async () => {
    const expected = await ids();
    expect(expected).toHaveLength(14);
    const response = await service.get('/api/insider-trades', key);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 14, page: 1, pages: 1, count: 14, total_is_estimate: false });
    expect(idsOf(response.body)).toEqual(expected);
    const option = response.body.trades.find(
      (trade: { ticker: string; derivative: boolean }) => trade.ticker === 'SNOW' && trade.derivative,
    );
    expect(option).toEqual({
      id: expect.any(String),
      ticker: 'SNOW',
      issuer_cik: '0001640147',
      insider_name: 'Scarpelli Michael',
      insider_cik: '0001402349',
      insider_title: 'Chief Financial Officer',
      security_title: 'Stock Option (Right to Buy)',
      derivative: true,
      transaction_date: '2022-12-13',
      transaction_code: 'M',
      shares: 200000,
      price_per_share: 0,
      acquired_disposed: 'A',
      shares_owned_after: 2219299,
      direct_ownership: true,
      rule_10b5_1: false,
      accession_number: SNOW_ACCESSION,
      filing_url: 'https://www.sec.gov/Archives/edgar/data/1640147/000120919122068411',
      conversion_or_exercise_price: 8.88,
      // The real filing gives the exercise date only as a footnote.
      exercise_date: null,
      expiration_date: '2029-08-26',
      underlying_security_title: 'Class A Common Stock',
      underlying_shares: 200000,
    });
    const stock = response.body.trades.find((trade: { derivative: boolean }) => !trade.derivative);
    expect(stock).toMatchObject({ conversion_or_exercise_price: null, expiration_date: null, underlying_shares: null });
  });

  it('filters by ticker, insider, transaction code and dates, as the database does', async () => {
    const cases: [string, string, unknown[]][] = [
      ['ticker=snow', `ticker = 'SNOW'`, []],
      ['insider=scarpelli', `owner_name = 'Scarpelli Michael'`, []],
      ['insider=Michael%20SCARPELLI', `owner_name = 'Scarpelli Michael'`, []],
      ['insider=jane%20doe', `owner_name = 'Doe Jane Q'`, []],
      ['insider=nobody', 'FALSE', []],
      ['transaction_code=s', `transaction_code = 'S'`, []],
      ['transaction_code=G', `transaction_code = 'G'`, []],
      ['from=2023-01-01', `transaction_date >= '2023-01-01'`, []],
      ['to=2022-12-13', `transaction_date <= '2022-12-13'`, []],
      [
        'from=2022-12-13&to=2022-12-13&transaction_code=M',
        `transaction_date = '2022-12-13' AND transaction_code = 'M'`,
        [],
      ],
      ['ticker=AAPL&transaction_code=S&insider=doe', `ticker = 'AAPL' AND transaction_code = 'S'`, []],
    ];
    for (const [query, where, params] of cases) {
      const expected = await ids(where, params);
      const response = await service.get(`/api/insider-trades?${query}`, key);
      expect(response.status, query).toBe(200);
      expect(idsOf(response.body), query).toEqual(expected);
      expect(response.body.total, query).toBe(expected.length);
    }
    // Every filter left something out and kept something (or nothing, for the unknown insider).
    expect((await ids(`transaction_code = 'G'`)).length).toBeGreaterThan(0);
  });

  it('pages with page and limit like the congressional trades', async () => {
    const expected = await ids();
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const response = await service.get(`/api/insider-trades?limit=3&page=${page}`, key);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: expected.length, page, pages: Math.ceil(expected.length / 3) });
      seen.push(...idsOf(response.body));
    }
    expect(seen).toEqual(expected);
    const past = await service.get('/api/insider-trades?limit=3&page=6', key);
    expect(past.body).toMatchObject({ trades: [], count: 0, total: expected.length });
  });

  it('refuses bad filter values with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['transaction_code=Q', 'transaction_code'],
      ['transaction_code=PS', 'transaction_code'],
      ['transaction_code=', 'transaction_code'],
      ['insider=ab', 'insider'],
      [`insider=${'a'.repeat(101)}`, 'insider'],
      ['ticker=TOOLONGTICKER', 'ticker'],
      ['from=2022-13-01', 'from'],
      ['to=yesterday', 'to'],
      ['from=2023-01-02&to=2023-01-01', 'from'],
      ['limit=201', 'limit'],
      ['page=0', 'page'],
    ];
    for (const [query, parameter] of cases) {
      expectError(await service.get(`/api/insider-trades?${query}`, key), 400, 'invalid_parameter', [parameter]);
    }
  });

  it('lists the sandbox’s generated filings, option exercises with their terms', async () => {
    const { key: sandbox } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    const response = await service.get('/api/insider-trades?limit=200', sandbox);
    expect(response.status).toBe(200);
    const sql = service.databases.sandbox.sql;
    const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM insider_transactions');
    expect(row!.n).toBeGreaterThan(0);
    expect(response.body.total).toBe(row!.n);
    const [newest] = await sql.query<{ id: string }>(
      'SELECT id FROM insider_transactions ORDER BY transaction_date DESC, id DESC LIMIT 1',
    );
    expect(response.body.trades[0].id).toBe(newest!.id);
    const exercises = await service.get('/api/insider-trades?transaction_code=M&limit=200', sandbox);
    const option = (exercises.body.trades as Record<string, unknown>[]).find((trade) => trade.derivative);
    expect(option, 'an option exercise in the sandbox').toBeDefined();
    expect(option).toMatchObject({ acquired_disposed: 'D', underlying_security_title: 'Common Stock' });
    expect(option!.conversion_or_exercise_price).toBeGreaterThan(0);
    expect(String(option!.expiration_date) > String(option!.transaction_date)).toBe(true);
  });
});

describe('insiderTrades in GraphQL', () => {
  it('answers the same rows, and leads from a trade to the company and its decision makers', async () => {
    const data = await service.graphql(
      `query { insiderTrades(ticker: "SNOW", transactionCode: "S", limit: 2) {
          nodes { id insiderName transactionCode company { name ticker contacts { id } } }
          pageInfo { total }
        }
        insiderTradesConnection(insider: "scarpelli", first: 20) { edges { node { id } } } }`,
      {},
      (await service.createKey({ plan: 'professional', mode: 'live' })).key,
    );
    const expected = await ids(`ticker = 'SNOW' AND transaction_code = 'S'`);
    expect(data.insiderTrades.nodes.map((trade: { id: string }) => trade.id)).toEqual(expected.slice(0, 2));
    expect(data.insiderTrades.pageInfo.total).toBe(expected.length);
    const [company] = await service.databases.live.sql.query<{ id: number; name: string }>(
      `SELECT id, name FROM companies WHERE ticker = 'SNOW' ORDER BY id LIMIT 1`,
    );
    const contacts = await service.databases.live.sql.query<{ id: number }>(
      'SELECT id FROM contacts WHERE company_id = $1 ORDER BY id',
      [company!.id],
    );
    for (const trade of data.insiderTrades.nodes) {
      expect(trade.company).toEqual({
        name: company!.name,
        ticker: 'SNOW',
        contacts: contacts.map((contact) => ({ id: `contact_${contact.id}` })),
      });
    }
    const connection = data.insiderTradesConnection.edges.map((edge: { node: { id: string } }) => edge.node.id);
    expect(connection.sort()).toEqual((await ids(`owner_name = 'Scarpelli Michael'`)).sort());
  });

  it('refuses an id that is not a UUID as invalid_parameter naming id, for every market record read by id', async () => {
    for (const field of ['insiderTrade', 'congressionalTrade', 'signal']) {
      const response = await service.graphqlRaw(`query { ${field}(id: "b2b_1") { id } }`, {}, key);
      expect(response.body.data, field).toEqual({ [field]: null });
      expect(response.body.errors[0].extensions, field).toEqual({
        code: 'invalid_parameter',
        details: { id: 'must be a UUID' },
      });
    }
  });

  it('gives the analyst plan the company but not its decision makers', async () => {
    const data = await service.graphql(
      `query { insiderTrades(ticker: "SNOW", limit: 1) { nodes { company { name ticker } } } }`,
      {},
      key,
    );
    expect(data.insiderTrades.nodes[0].company.ticker).toBe('SNOW');
    const refused = await service.graphqlRaw(
      `query { insiderTrades(ticker: "SNOW", limit: 1) { nodes { company { contacts { id } } } } }`,
      {},
      key,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('plan_required');
  });
});

describe('option details on congressional trades', () => {
  it('shows a disclosed option’s contract as option_detail over REST and optionDetail in GraphQL', async () => {
    const { key: sandbox } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    const rows = await service.databases.sandbox.sql.query<{ id: string; option_detail: string | null }>(
      `SELECT id, option_detail FROM congressional_trades WHERE superseded_by_id IS NULL
        ORDER BY trade_date DESC, id DESC LIMIT 200`,
    );
    expect(rows.some((row) => row.option_detail !== null)).toBe(true);
    const response = await service.get('/api/congressional-trades?days=3650&limit=200', sandbox);
    expect(response.status).toBe(200);
    const shown = new Map(
      response.body.trades.map((trade: { id: string; option_detail: string | null }) => [
        trade.id,
        trade.option_detail,
      ]),
    );
    for (const row of rows) expect(shown.get(row.id), row.id).toBe(row.option_detail);
    const option = rows.find((row) => row.option_detail !== null)!;
    const data = await service.graphql(
      `query { congressionalTrade(id: "${option.id}") { optionDetail } }`,
      {},
      sandbox,
    );
    expect(data.congressionalTrade.optionDetail).toBe(option.option_detail);
    expect(option.option_detail).toMatch(/^(Call|Put), strike \$\d+, expires \d{4}-\d{2}-\d{2}$/);
  });
});
