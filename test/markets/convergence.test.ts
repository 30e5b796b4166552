import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERGENCE_EVIDENCE_LIMIT, convergenceLeadsFromDatabase } from '../../subgraphs/markets/convergence-query.ts';
import type { Lead } from '../../subgraphs/markets/convergence-query.ts';
import { convergenceLeads } from '../../subgraphs/markets/convergence-score.ts';
import { refreshMarketRollups } from '../../subgraphs/markets/rollups.ts';
import { daysAgo } from '../../subgraphs/markets/types/congressional-trade.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { createTestDatabases, type TestDatabases } from '../support/databases.ts';
import { DAY } from './fixture.ts';

/**
 * The SQL of the convergence route (rollups + the first partial day from the signals) against the scoring rule
 * of convergence-score.ts run over every raw row, on a generated dataset with the cases that could tell them
 * apart: capped parts, score ties, amended and non-purchase trades, name-only members, a member disclosed under
 * two names, and signals a minute either side of the window's start.
 */

let store: TestDatabases;
let db: Database;

/** A small deterministic generator (mulberry32), so the dataset is the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TICKERS = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF', 'GGG', 'HHH', 'III', 'JJJ', 'KKK', 'LLL'];
const MEMBERS: [string | null, string][] = [
  ['A000001', 'Ann Able'],
  ['A000001', 'Ann B. Able'],
  ['B000002', 'Bob Baker'],
  ['C000003', 'Cy Cole'],
  ['D000004', 'Di Dunn'],
  [null, 'Eve Unmatched'],
  [null, 'Fay Unmatched'],
];
const uuid = (prefix: string, n: number) => `00000000-0000-4000-${prefix}-${n.toString(16).padStart(12, '0')}`;

async function load(): Promise<void> {
  const next = random(42);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const trades = Array.from({ length: 160 }, (_, n) => {
    const [bioguideId, memberName] = pick(MEMBERS);
    const tradeDate = daysAgo(Math.floor(next() * 110));
    return {
      id: uuid('8000', n),
      bioguideId,
      memberName,
      party: 'D',
      chamber: 'house',
      ticker: next() < 0.05 ? null : pick(TICKERS),
      assetDescription: 'stock',
      assetType: 'stock',
      tradeType: next() < 0.7 ? 'purchase' : pick(['sale', 'sale_partial', 'exchange']),
      owner: 'self',
      amountRange: '$1,001 - $15,000',
      tradeDate,
      disclosureDate: new Date(tradeDate.getTime() + 20 * DAY),
      source: 'test',
      naturalKey: `t${n}`,
      supersededById: next() < 0.1 ? uuid('8000', 0) : null,
    };
  });
  const windowStart = Date.now() - 30 * DAY;
  const signals = Array.from({ length: 400 }, (_, n) => {
    // A tenth of the signals fall within a minute of the window's start, on either side.
    const createdAt =
      n % 10 === 0
        ? new Date(windowStart + (next() < 0.5 ? -1 : 1) * 60_000 * (1 + next()))
        : new Date(Date.now() - next() * 40 * DAY);
    const ticker = pick(TICKERS);
    return {
      id: uuid('9000', n),
      ticker,
      companyName: `${ticker} Inc. ${n}`,
      signalType: 'sec_filing',
      filingType: '8-K',
      aiSummary: 'summary',
      materialityScore: 50,
      sentiment: pick(['BULLISH', 'NEUTRAL', 'BEARISH', 'BEARISH']),
      urgent: false,
      sourceUrl: 'https://example.com',
      sourceKey: `s${n}`,
      createdAt,
    };
  });
  await db.prisma.member.createMany({
    data: ['A000001', 'B000002', 'C000003', 'D000004'].map((bioguideId) => ({
      bioguideId,
      firstName: 'F',
      lastName: 'L',
      fullName: 'F L',
      party: 'D',
      chamber: 'house',
      state: 'CA',
      committees: [],
    })),
  });
  await db.prisma.congressionalTrade.createMany({ data: trades });
  await db.prisma.signal.createMany({ data: signals });
  await refreshMarketRollups(db);
}

/** The rule over every raw row, as the route computed it before it moved into SQL. */
async function expectedLeads(purchasesFrom: Date, signalsFrom: Date): Promise<Lead[]> {
  const purchases = await db.prisma.congressionalTrade.findMany({
    where: { supersededById: null, tradeType: 'purchase', ticker: { not: null }, tradeDate: { gte: purchasesFrom } },
  });
  const signals = await db.prisma.signal.findMany({ where: { createdAt: { gte: signalsFrom } } });
  return convergenceLeads(purchases, signals).map((lead) => ({
    ...lead,
    purchases: lead.purchases.slice(0, CONVERGENCE_EVIDENCE_LIMIT),
    signals: lead.signals.slice(0, CONVERGENCE_EVIDENCE_LIMIT),
  }));
}

const comparable = (leads: Lead[]) =>
  leads.map((lead) => ({
    ...lead,
    purchases: lead.purchases.map((trade) => trade.id),
    signals: lead.signals.map((signal) => signal.id),
  }));

beforeAll(async () => {
  store = await createTestDatabases();
  db = store.databases.sandbox;
  await load();
});

afterAll(async () => {
  await store?.drop();
});

describe('convergence leads in SQL', () => {
  it('equal the scoring rule over the raw rows, order, counts, members and evidence included', async () => {
    const purchasesFrom = daysAgo(90);
    for (const signalsFrom of [new Date(Date.now() - 30 * DAY), new Date(Date.now() - 7 * DAY)]) {
      const expected = await expectedLeads(purchasesFrom, signalsFrom);
      expect(expected.length).toBeGreaterThan(5);
      expect(new Set(expected.map((lead) => lead.score)).size).toBeLessThan(expected.length); // ties are ordered too
      expect(comparable(await convergenceLeadsFromDatabase(db, { purchasesFrom, signalsFrom, limit: 100 }))).toEqual(
        comparable(expected),
      );
      expect(comparable(await convergenceLeadsFromDatabase(db, { purchasesFrom, signalsFrom, limit: 3 }))).toEqual(
        comparable(expected.slice(0, 3)),
      );
    }
  });

  it('names a member as in their newest purchase, once', async () => {
    const leads = await convergenceLeadsFromDatabase(db, {
      purchasesFrom: daysAgo(90),
      signalsFrom: new Date(Date.now() - 30 * DAY),
      limit: 100,
    });
    for (const lead of leads) {
      expect(lead.congressMembers.filter((name) => name.includes('Able')).length).toBeLessThanOrEqual(1);
    }
  });

  it('counts records written since the last refresh once the rollups are refreshed', async () => {
    const window = { purchasesFrom: daysAgo(90), signalsFrom: new Date(Date.now() - 30 * DAY), limit: 100 };
    const before = await convergenceLeadsFromDatabase(db, window);
    const lead = before[0]!;
    await db.prisma.signal.create({
      data: {
        ticker: lead.ticker,
        companyName: 'Newest Inc.',
        signalType: 'macro',
        filingType: '8-K',
        aiSummary: 'new',
        materialityScore: 1,
        sentiment: 'BEARISH',
        urgent: false,
        sourceUrl: 'https://example.com',
        sourceKey: 'fresh',
        createdAt: new Date(Date.now() - 3 * DAY),
      },
    });
    await refreshMarketRollups(db);
    const after = (await convergenceLeadsFromDatabase(db, window)).find((row) => row.ticker === lead.ticker)!;
    expect(after.totalSignals).toBe(lead.totalSignals + 1);
    expect(comparable(await convergenceLeadsFromDatabase(db, window))).toEqual(
      comparable(await expectedLeads(window.purchasesFrom, window.signalsFrom)),
    );
  });
});
