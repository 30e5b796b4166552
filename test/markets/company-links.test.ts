import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/**
 * The way back from market data to the business vertical, on the generated sandbox: one GraphQL query goes from
 * a trade, signal, ticker, convergence lead or watchlist entry to the company with that ticker and its contacts.
 */
let service: TestService;
let key: string;

const COMPANY = 'company { id name ticker contacts { id name title email } }';

interface CompanyRow {
  id: number;
  name: string;
  ticker: string;
}

/** The company a ticker must resolve to, read from the database: the lowest id carrying it. */
async function companyOf(ticker: string): Promise<{ id: string; name: string; ticker: string; contacts: string[] }> {
  const sql = service.databases.sandbox.sql;
  const [company] = await sql.query<CompanyRow>(
    'SELECT id, name, ticker FROM companies WHERE ticker = $1 ORDER BY id LIMIT 1',
    [ticker],
  );
  expect(company, `a sandbox company with ticker ${ticker}`).toBeDefined();
  const contacts = await sql.query<{ id: number }>('SELECT id FROM contacts WHERE company_id = $1 ORDER BY id', [
    company!.id,
  ]);
  return {
    id: `b2b_${company!.id}`,
    name: company!.name,
    ticker,
    contacts: contacts.map((contact) => `contact_${contact.id}`),
  };
}

function expectCompany(
  actual: { id: string; name: string; ticker: string; contacts: { id: string; name: string }[] } | null,
  expected: Awaited<ReturnType<typeof companyOf>>,
) {
  expect(actual).toMatchObject({ id: expected.id, name: expected.name, ticker: expected.ticker });
  expect(actual!.contacts.map((contact) => contact.id)).toEqual(expected.contacts);
  expect(actual!.contacts.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300, liveScale: 300 });
  ({ key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' }));
  // Two of the newest trades in one company, whatever the day's generated data holds: a repeated ticker must
  // cost no more statements than distinct ones.
  await service.databases.sandbox.sql.query(
    `INSERT INTO congressional_trades (id, bioguide_id, member_name, party, chamber, ticker, asset_description,
       asset_type, trade_type, owner, amount_range, trade_date, disclosure_date, source, natural_key)
     SELECT gen_random_uuid(), bioguide_id, full_name, party, chamber, 'NVDA', 'NVIDIA Corp - Common Stock', 'stock',
       'purchase', 'self', '$1,001 - $15,000', current_date, current_date, 'fixture', 'company-links-repeat-' || n
     FROM members, generate_series(1, 2) AS n ORDER BY bioguide_id LIMIT 2`,
  );
});
afterAll(() => service?.stop());

describe('market records link to the verticals company by ticker', () => {
  it('goes from a congressional trade to the company and its decision makers in one query', async () => {
    service.queries.length = 0;
    const data = await service.graphql(
      `query { congressionalTrades(days: 3650, limit: 20) { nodes { id ticker ${COMPANY} } } }`,
      {},
      key,
    );
    const trades = data.congressionalTrades.nodes as { ticker: string; company: never }[];
    expect(trades.filter((trade) => trade.ticker === 'NVDA').length).toBeGreaterThanOrEqual(2);
    // Batched: the companies of every trade cost the same few statements however many trades there are.
    const reads = (table: string) => service.queries.filter((sql) => sql.includes(`FROM "public"."${table}"`));
    expect(reads('companies').length).toBeLessThanOrEqual(2);
    expect(reads('contacts')).toHaveLength(1);
    for (const trade of trades) expectCompany(trade.company, await companyOf(trade.ticker));
  });

  it('goes from a signal to the company; a fund’s macro signal has none, without an error', async () => {
    const data = await service.graphql(
      `query { stock: signals(signalType: insider_buy, limit: 5) { nodes { ticker ${COMPANY} } }
               macro: signals(signalType: macro, limit: 3) { nodes { ticker ${COMPANY} } } }`,
      {},
      key,
    );
    const stock = data.stock.nodes as { ticker: string; company: never }[];
    expect(stock.length).toBeGreaterThan(0);
    for (const signal of stock) expectCompany(signal.company, await companyOf(signal.ticker));
    const macro = data.macro.nodes as { ticker: string; company: unknown }[];
    expect(macro.length).toBeGreaterThan(0);
    for (const signal of macro) {
      const [row] = await service.databases.sandbox.sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM companies WHERE ticker = $1',
        [signal.ticker],
      );
      expect(row!.n).toBe(0);
      expect(signal.company).toBeNull();
    }
  });

  it('goes from a ticker view and from a convergence lead to the company', async () => {
    const data = await service.graphql(
      `query { ticker(symbol: "aapl") { ticker ${COMPANY} } convergenceLeads(limit: 5) { ticker ${COMPANY} } }`,
      {},
      key,
    );
    expectCompany(data.ticker.company, await companyOf('AAPL'));
    const leads = data.convergenceLeads as { ticker: string; company: never }[];
    expect(leads.length).toBeGreaterThan(0);
    for (const lead of leads) expectCompany(lead.company, await companyOf(lead.ticker));
  });

  it('goes from a watchlist entry to the company, and back to its market data', async () => {
    const { key: own } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
    const added = await service.request('POST', '/api/watchlist', { key: own, body: { ticker: 'MSFT' } });
    expect(added.status).toBe(201);
    const data = await service.graphql(
      `query { watchlist { ticker company { name ticker contacts { id } profile { ticker } signals(limit: 1) { ticker } } } }`,
      {},
      own,
    );
    const expected = await companyOf('MSFT');
    expect(data.watchlist).toHaveLength(1);
    const company = data.watchlist[0].company;
    expect(company).toMatchObject({ name: expected.name, ticker: 'MSFT', profile: { ticker: 'MSFT' } });
    expect(company.contacts.map((contact: { id: string }) => contact.id)).toEqual(expected.contacts);
    for (const signal of company.signals) expect(signal.ticker).toBe('MSFT');
  });

  it('still extends companies without a ticker (private ones) with empty market data', async () => {
    const data = await service.graphql(
      `query { companies(sort: ID_ASC, perPage: 100, page: 2) { nodes { id ticker signals(limit: 1) { id } quote { price } market { ticker } } } }`,
      {},
      key,
    );
    const nodes = data.companies.nodes as { ticker: string | null; signals: unknown[]; quote: unknown }[];
    const privateOnes = nodes.filter((company) => company.ticker === null);
    expect(privateOnes.length).toBeGreaterThan(0);
    for (const company of privateOnes) expect(company).toMatchObject({ signals: [], quote: null, market: null });
    const listed = nodes.filter((company) => company.ticker !== null);
    expect(listed.length).toBeGreaterThan(0);
    for (const company of listed) expect(company).toMatchObject({ market: { ticker: company.ticker } });
  });

  it('answers an unknown ticker’s company with null', async () => {
    const data = await service.graphql(`query { ticker(symbol: "ZZZZ") { found ${COMPANY} } }`, {}, key);
    expect(data.ticker).toEqual({ found: false, company: null });
  });

  it('answers a ticker without a company record with null and no value-completion noise', async () => {
    const { status, body } = await service.graphqlRaw(
      `query { signals(signalType: macro, limit: 3) { nodes { ticker ${COMPANY} } } }`,
      {},
      key,
    );
    expect(status).toBe(200);
    const nodes = (body as { data: { signals: { nodes: { company: unknown }[] } } }).data.signals.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    for (const node of nodes) expect(node.company).toBeNull();
    // No reference is sent for a ticker without a company, so no gateway reports an unresolved Company here.
    expect(body).not.toHaveProperty('errors');
    expect(body).not.toHaveProperty('extensions.valueCompletion');
  });
});

describe('the companies ticker filter', () => {
  it('finds the companies with a ticker over REST and GraphQL, in any case', async () => {
    const expected = await companyOf('NVDA');
    const rest = await service.get('/api/v1/b2b/companies?ticker=nvda', key);
    expect(rest.status).toBe(200);
    const [row] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM companies WHERE ticker = 'NVDA'`,
    );
    expect(rest.body.pagination.total).toBe(row!.n);
    expect(rest.body.data.map((company: { id: string }) => company.id)).toContain(expected.id);
    const data = await service.graphql(`query { companies(ticker: "NVDA") { nodes { id ticker } } }`, {}, key);
    expect(data.companies.nodes).toEqual([{ id: expected.id, ticker: 'NVDA' }]);
    const none = await service.get('/api/v1/b2b/companies?ticker=ZZZZ', key);
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it('refuses a value that is no ticker', async () => {
    for (const bad of ['A'.repeat(11), '1ABC', 'A B', "A'--"]) {
      const response = await service.get(`/api/v1/b2b/companies?ticker=${encodeURIComponent(bad)}`, key);
      expect(response.status, bad).toBe(400);
      expect(JSON.stringify(response.body.details ?? response.body)).toContain('ticker');
    }
  });
});
