import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';
import { expectError } from '../support/expect-error.ts';
import { isoDay, loadMarketFixture, signalId, tradeId } from './fixture.ts';

let service: TestService;
let companyId: number;

beforeAll(async () => {
  service = await startTestService();
  ({ companyId } = await loadMarketFixture(service.databases.sandbox));
});
afterAll(() => service?.stop());

describe('watchlist', () => {
  it('adds, lists with live data, and removes with GET or DELETE', async () => {
    const { key } = await service.createKey();
    const added = await service.request('POST', '/api/watchlist', {
      key,
      body: { ticker: 'nvda', company_name: 'NVIDIA' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ ticker: 'NVDA', company_name: 'NVIDIA', created: true });
    const again = await service.request('POST', '/api/watchlist', {
      key,
      body: { ticker: 'NVDA', company_name: 'Other' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ ticker: 'NVDA', company_name: 'NVIDIA', created: false });
    // Without a company name, the profile names it.
    const apple = await service.request('POST', '/api/watchlist', { key, body: { ticker: 'AAPL' } });
    expect(apple.body).toMatchObject({ ticker: 'AAPL', company_name: 'Apple Inc.' });

    const list = await service.get('/api/watchlist', key);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    const [nvda, aapl] = list.body.watchlist;
    expect(nvda).toMatchObject({
      ticker: 'NVDA',
      company_name: 'NVIDIA',
      quote: { price: 110, changePct: 10, date: isoDay(2) },
      latest_signal: { id: signalId('s1'), ticker: 'NVDA' },
      latest_congressional_trade: { id: tradeId('t1'), member_name: 'Nancy Pelosi', trade_date: isoDay(10) },
    });
    expect(nvda.added_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(aapl.ticker).toBe('AAPL');

    const removed = await service.get('/api/watchlist/nvda', key);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ticker: 'NVDA', removed: true });
    const deleted = await service.request('DELETE', '/api/watchlist/AAPL', { key });
    expect(deleted.body).toEqual({ ticker: 'AAPL', removed: true });
    expect((await service.get('/api/watchlist', key)).body).toEqual({
      watchlist: [],
      count: 0,
      total: 0,
      page: 1,
      pages: 0,
      total_is_estimate: false,
    });
    expectError(await service.get('/api/watchlist/NVDA', key), 404, 'not_found');
  });

  it('belongs to one account: another account neither sees nor removes it', async () => {
    const owner = await service.createKey();
    const other = await service.createKey();
    await service.request('POST', '/api/watchlist', {
      key: owner.key,
      body: { ticker: 'MSFT', company_name: 'Microsoft' },
    });
    expect((await service.get('/api/watchlist', other.key)).body.watchlist).toEqual([]);
    expectError(await service.request('DELETE', '/api/watchlist/MSFT', { key: other.key }), 404, 'not_found');
    expect(
      (await service.get('/api/watchlist', owner.key)).body.watchlist.map((entry: { ticker: string }) => entry.ticker),
    ).toEqual(['MSFT']);
    const rows = await service.databases.sandbox.prisma.watchlistEntry.findMany({ where: { ticker: 'MSFT' } });
    expect(rows.map((row) => row.accountId)).toEqual([owner.accountId]);
  });

  it('refuses bad input and missing credentials', async () => {
    const { key } = await service.createKey();
    expectError(await service.request('POST', '/api/watchlist', { key, body: {} }), 400, 'invalid_parameter', [
      'ticker',
    ]);
    expectError(
      await service.request('POST', '/api/watchlist', { key, body: { ticker: 'ABCDEFGHIJKL' } }),
      400,
      'invalid_parameter',
      ['ticker'],
    );
    expectError(
      await service.request('POST', '/api/watchlist', { key, body: { ticker: 'NVDA', company_name: '' } }),
      400,
      'invalid_parameter',
      ['company_name'],
    );
    expectError(await service.request('POST', '/api/watchlist', { key, body: [1] }), 400, 'invalid_parameter', [
      'body',
    ]);
    expectError(await service.get('/api/watchlist/%24%24', key), 400, 'invalid_parameter', ['ticker']);
    expectError(await service.request('GET', '/api/watchlist'), 401, 'unauthorized');
    expectError(await service.request('POST', '/api/watchlist', { body: { ticker: 'NVDA' } }), 401, 'unauthorized');
  });
});

describe('GraphQL', () => {
  it('one query joins a company’s contacts (verticals) with its signals, trades, profile and quote (markets)', async () => {
    const data = await service.graphql(
      `query Company($id: String!) {
        company(id: $id) {
          name ticker
          contacts { name title }
          signals(limit: 2) { id sentiment }
          congressionalTrades { memberName tradeType amountLow late member { bioguideId party chamber } }
          profile { sector ceo }
          quote { price changePct }
          market { summary { congressBuys signalsTotal } }
        }
      }`,
      { id: `b2b_${companyId}` },
    );
    expect(data.company.contacts.map((contact: { name: string }) => contact.name)).toEqual([
      'Jensen Huang',
      'Colette Kress',
    ]);
    expect(data.company.signals.map((signal: { id: string }) => signal.id)).toEqual([signalId('s1'), signalId('s2')]);
    expect(data.company.congressionalTrades.map((trade: { memberName: string }) => trade.memberName)).toEqual([
      'Nancy Pelosi',
      'Nydia Velázquez',
      'Ted Cruz',
    ]);
    expect(data.company.congressionalTrades[0].member).toEqual({ bioguideId: 'P000197', party: 'D', chamber: 'house' });
    expect(data.company.congressionalTrades[2]).toMatchObject({ amountLow: 15001, late: true });
    expect(data.company).toMatchObject({
      profile: { sector: 'Technology', ceo: 'Jensen Huang' },
      quote: { price: 110, changePct: 10 },
    });
    expect(data.company.market.summary).toEqual({ congressBuys: 2, signalsTotal: 3 });
  });

  it('reads the market data of many companies in batches, not one query per company', async () => {
    const template = await service.databases.sandbox.prisma.company.findUniqueOrThrow({ where: { id: companyId } });
    const { id: _id, createdAt: _createdAt, ...fields } = template;
    for (const ticker of ['AAPL', 'MSFT', 'TSLA', 'XOM']) {
      await service.databases.sandbox.prisma.company.create({
        data: { ...fields, name: `${ticker} Corp`, ticker, aiScore: 95 },
      });
    }
    const { key } = await service.createKey();
    service.queries.length = 0;
    const data = await service.graphql(
      `{ companies(minScore: 90, perPage: 10) { nodes { ticker congressionalTrades { id } signals { id } quote { price } profile { sector } } } }`,
      {},
      key,
    );
    expect(data.companies.nodes).toHaveLength(5);
    const trades = data.companies.nodes.find(
      (company: { ticker: string }) => company.ticker === 'MSFT',
    ).congressionalTrades;
    expect(trades.map((trade: { id: string }) => trade.id)).toEqual([tradeId('t5')]);
    // One read per kind of market data, whatever the number of companies.
    for (const table of ['congressional_trades', 'signals', 'company_profiles', 'daily_prices']) {
      expect(readsOf(service.queries, table), table).toHaveLength(1);
    }
  });

  it('offers every route as a query, members with their trades, and watchlist mutations taking one input', async () => {
    const { key } = await service.createKey();
    const data = await service.graphql(
      `{
        member(bioguideId: "P000197") { name tradesCount trades(limit: 2) { ticker } }
        members(q: "Pelosi, Nancy") { similarity member { bioguideId } }
        ticker(symbol: "nvda") { found quote { price } }
        convergenceLeads(limit: 1) { ticker score scoreBreakdown { members purchases signals } }
        yieldCurve { spread2To10 inverted }
        publicStats { membersTracked }
        congressionalTradesSummary { totalTrades }
        briefings(limit: 1) { nodes { date } }
        macroIndicators { seriesId }
        companyProfile(ticker: "AAPL") { companyName }
      }`,
      {},
      key,
    );
    expect(data.member).toEqual({
      name: 'Nancy Pelosi',
      tradesCount: 3,
      trades: [{ ticker: 'NVDA' }, { ticker: 'AMZN' }],
    });
    expect(data.members[0].member.bioguideId).toBe('P000197');
    // NVDA: two members, $3.03M bought, 2 bullish and 1 neutral signal (docs/api.md "Convergence leads").
    expect(data.convergenceLeads).toEqual([
      { ticker: 'NVDA', score: 83.5, scoreBreakdown: { members: 2, purchases: 7.67, signals: 3 } },
    ]);
    expect(data.yieldCurve).toEqual({ spread2To10: -0.3, inverted: true });

    const added = await service.graphql(
      `mutation { addWatchlistEntry(input: { ticker: "xom" }) { created entry { ticker companyName } } }`,
      {},
      key,
    );
    expect(added.addWatchlistEntry).toEqual({ created: true, entry: { ticker: 'XOM', companyName: 'XOM' } });
    const removed = await service.graphql(
      `mutation { removeWatchlistEntry(input: { ticker: "XOM" }) { ticker removed } }`,
      {},
      key,
    );
    expect(removed.removeWatchlistEntry).toEqual({ ticker: 'XOM', removed: true });
    const error = await service.graphqlRaw(
      `mutation { removeWatchlistEntry(input: { ticker: "XOM" }) { ticker } }`,
      {},
      key,
    );
    expect(error.body.errors[0].extensions.code).toBe('not_found');
  });
});
