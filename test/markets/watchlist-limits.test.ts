import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCHLIST_MAX_ENTRIES } from '../../subgraphs/markets/types/watchlist.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { expectError } from '../support/expect-error.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

/** Distinct ticker symbols: W0, W1, … */
const tickers = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `W${from + index}`);

/** Fills an account's watchlist directly (the API would spend a sandbox key's trial calls). */
async function fill(accountId: string, count: number) {
  await service.databases.sandbox.prisma.watchlistEntry.createMany({
    data: tickers(count).map((ticker, index) => ({
      accountId,
      ticker,
      companyName: ticker,
      createdAt: new Date(Date.UTC(2026, 0, 1) + index * 1000),
    })),
  });
}

describe('watchlist size cap', () => {
  it(`refuses the ${WATCHLIST_MAX_ENTRIES + 1}st ticker with a 409 and accepts re-adding one already there`, async () => {
    expect(WATCHLIST_MAX_ENTRIES).toBe(500);
    const { key, accountId } = await service.createKey();
    await fill(accountId, WATCHLIST_MAX_ENTRIES - 1);
    expect((await service.request('POST', '/api/watchlist', { key, body: { ticker: 'LAST' } })).status).toBe(201);
    const full = await service.request('POST', '/api/watchlist', { key, body: { ticker: 'ONEMORE' } });
    expectError(full, 409, 'conflict');
    expect(full.body.message).toBe(
      'The watchlist holds 500 tickers, the most an account may keep; remove one before adding another.',
    );
    expect((await service.request('POST', '/api/watchlist', { key, body: { ticker: 'W7' } })).status).toBe(200);
    const graphql = await service.graphqlRaw(
      'mutation { addWatchlistEntry(input: { ticker: "ONEMORE" }) { created } }',
      {},
      key,
    );
    expect(graphql.body.errors[0].extensions.code).toBe('conflict');
    // Removing one makes room again.
    expect((await service.request('DELETE', '/api/watchlist/W7', { key })).status).toBe(200);
    expect((await service.request('POST', '/api/watchlist', { key, body: { ticker: 'ONEMORE' } })).status).toBe(201);
    expect(await service.databases.sandbox.prisma.watchlistEntry.count({ where: { accountId } })).toBe(
      WATCHLIST_MAX_ENTRIES,
    );
  });

  it('holds exactly when adds race for the last places', async () => {
    const { key, accountId } = await service.createKey();
    await fill(accountId, WATCHLIST_MAX_ENTRIES - 3);
    const responses = await Promise.all(
      tickers(8, 1000).map((ticker) => service.request('POST', '/api/watchlist', { key, body: { ticker } })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(await service.databases.sandbox.prisma.watchlistEntry.count({ where: { accountId } })).toBe(
      WATCHLIST_MAX_ENTRIES,
    );
  });
});

describe('watchlist paging', () => {
  it('pages with limit and page (50 by default, at most 200), in the order added, with the list totals', async () => {
    const { key, accountId } = await service.createKey();
    await fill(accountId, 120);
    const first = await service.get('/api/watchlist', key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 50, total: 120, page: 1, pages: 3, total_is_estimate: false });
    expect(first.body.watchlist.map((entry: { ticker: string }) => entry.ticker)).toEqual(tickers(50));
    const last = await service.get('/api/watchlist?limit=100&page=2', key);
    expect(last.body).toMatchObject({ count: 20, total: 120, page: 2, pages: 2 });
    expect(last.body.watchlist.map((entry: { ticker: string }) => entry.ticker)).toEqual(tickers(20, 100));
    expect(Object.keys(last.body.watchlist[0]).sort()).toEqual([
      'added_at',
      'company_name',
      'latest_congressional_trade',
      'latest_signal',
      'quote',
      'ticker',
    ]);
    expectError(await service.get('/api/watchlist?limit=201', key), 400, 'invalid_parameter', ['limit']);
    expectError(await service.get('/api/watchlist?page=0', key), 400, 'invalid_parameter', ['page']);
    const data = await service.graphql(
      '{ watchlist: watchlistPage(page: 3, limit: 50) { nodes { ticker } pageInfo { total totalPages } } }',
      {},
      key,
    );
    expect(data.watchlist).toEqual({
      nodes: tickers(20, 100).map((ticker) => ({ ticker })),
      pageInfo: { total: 120, totalPages: 3 },
    });
    // The unpaged list of earlier clients is still there, whole (the cap bounds it).
    const whole = await service.graphql('{ watchlist { ticker } }', {}, key);
    expect(whole.watchlist).toEqual(tickers(120).map((ticker) => ({ ticker })));
  });
});
