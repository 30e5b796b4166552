import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFERRED_JOIN_FROM } from '../../subgraphs/platform/deep-page.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { day, noon } from './fixture.ts';

/**
 * Pages past DEFERRED_JOIN_FROM skipped rows are read ids first, then rows by id: they must hold the same rows in
 * the same order as the database's ORDER BY … OFFSET. Many records share a timestamp or trade date, so the id
 * tie-breaker decides the order.
 */
let service: TestService;
let key: string;
const RECORDS = DEFERRED_JOIN_FROM + 230;

const hex = (n: number) => n.toString(16).padStart(12, '0');

beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.createKey({ plan: 'institutional' }));
  const prisma = service.databases.sandbox.prisma;
  await prisma.member.create({
    data: {
      bioguideId: 'D000001',
      firstName: 'Dee',
      lastName: 'Page',
      fullName: 'Dee Page',
      party: 'D',
      chamber: 'senate',
      state: 'VT',
      committees: [],
    },
  });
  // Scrambled ids, ten records per timestamp or date: only the id orders records within one.
  const ids = Array.from({ length: RECORDS }, (_, n) => hex((n * 7919) % 100_003));
  await prisma.signal.createMany({
    data: ids.map((id, n) => ({
      id: `00000000-0000-4000-9000-${id}`,
      ticker: n % 3 ? 'DEEP' : 'PAGE',
      companyName: 'Deep Page Inc.',
      signalType: n % 8 ? 'insider_buy' : 'sec_filing',
      filingType: '8-K',
      aiSummary: 'deep',
      materialityScore: 50,
      sentiment: 'NEUTRAL',
      urgent: false,
      sourceUrl: 'https://www.sec.gov/deep',
      sourceKey: `deep-${n}`,
      createdAt: noon(Math.floor(n / 10)),
    })),
  });
  await prisma.congressionalTrade.createMany({
    data: ids.map((id, n) => ({
      id: `00000000-0000-4000-8000-${id}`,
      bioguideId: 'D000001',
      memberName: 'Dee Page',
      party: n % 10 === 3 ? 'R' : 'D',
      chamber: 'senate',
      ticker: 'DEEP',
      assetDescription: 'DEEP common stock',
      assetType: 'stock',
      tradeType: 'purchase',
      owner: 'self',
      amountRange: '$1,001 - $15,000',
      tradeDate: day(Math.floor(n / 10) % 80),
      source: 'fixture',
      naturalKey: `deep-${n}`,
      supersededById: n % 50 === 7 ? `00000000-0000-4000-8000-${ids[0]}` : null,
    })),
  });
});
afterAll(() => service?.stop());

async function sqlIds(statement: string, params: unknown[] = []): Promise<string[]> {
  const rows = await service.databases.sandbox.sql.query<{ id: string }>(statement, params);
  return rows.map((row) => row.id);
}

const idsOf = (records: { id: string }[]) => records.map((record) => record.id);

describe('deep offset pages (deferred join)', () => {
  it('signals: a deep page and the pages around the threshold hold the database order', async () => {
    const all = await sqlIds('SELECT id FROM signals ORDER BY created_at DESC, id DESC');
    expect(all).toHaveLength(RECORDS);
    const limit = 50;
    for (const page of [DEFERRED_JOIN_FROM / limit, DEFERRED_JOIN_FROM / limit + 1, DEFERRED_JOIN_FROM / limit + 3]) {
      const response = await service.get(`/api/signals?limit=${limit}&page=${page}`, key);
      expect(response.status).toBe(200);
      expect(idsOf(response.body.signals)).toEqual(all.slice((page - 1) * limit, page * limit));
    }
    const beyond = await service.get(`/api/signals?limit=${limit}&page=${Math.ceil(RECORDS / limit) + 1}`, key);
    expect(beyond.body.signals).toEqual([]);
  });

  it('signals: a deep page of a filter holds the filter and the order', async () => {
    const page = Math.ceil(DEFERRED_JOIN_FROM / 7) + 1;
    const expected = await sqlIds(
      `SELECT id FROM signals WHERE signal_type = 'insider_buy' ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 7`,
      [(page - 1) * 7],
    );
    expect(expected).toHaveLength(7);
    const response = await service.get(`/api/signals?signal_type=insider_buy&limit=7&page=${page}`, key);
    expect(response.body.signals.map((signal: { signal_type: string }) => signal.signal_type)).toEqual(
      Array(7).fill('insider_buy'),
    );
    expect(idsOf(response.body.signals)).toEqual(expected);
  });

  it('congressional trades: a deep page keeps trades in force only, newest trade first, ids breaking ties', async () => {
    const page = DEFERRED_JOIN_FROM / 20 + 2;
    const expected = await sqlIds(
      `SELECT id FROM congressional_trades WHERE superseded_by_id IS NULL AND party = 'D' AND trade_date >= $1
       ORDER BY trade_date DESC, id DESC OFFSET $2 LIMIT 20`,
      [day(90), (page - 1) * 20],
    );
    expect(expected).toHaveLength(20);
    const response = await service.get(`/api/congressional-trades?chamber=senate&party=D&limit=20&page=${page}`, key);
    expect(response.status).toBe(200);
    expect(idsOf(response.body.trades)).toEqual(expected);
  });
});
