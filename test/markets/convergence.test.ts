import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONVERGENCE_EVIDENCE_LIMIT,
  convergenceLeadsFromDatabase,
  newestTradeDate,
} from '../../subgraphs/markets/convergence-query.ts';
import type { ConvergenceWindow, Lead } from '../../subgraphs/markets/convergence-query.ts';
import { convergenceLeads } from '../../subgraphs/markets/convergence-score.ts';
import { refreshMarketRollups } from '../../subgraphs/markets/rollups.ts';
import { daysAgo } from '../../subgraphs/markets/types/congressional-trade.ts';
import { parseAmountRange } from '../../subgraphs/markets/disclosure.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { createTestDatabases, type TestDatabases } from '../support/databases.ts';
import { DAY } from './fixture.ts';

/**
 * The SQL of the convergence route (purchases of a window, signal rollups + the first partial day from the signals)
 * against the specification of subgraphs/markets/convergence-score.ts run over every raw row, on a generated
 * dataset with the cases that could tell them apart: amended and non-purchase trades, name-only members, a member
 * disclosed under two names, every amount bucket, signals a minute either side of a window's start, and windows
 * that end before the newest data (`as_of`) or run through it.
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
const AMOUNTS = [
  '$1,001 - $15,000',
  '$15,001 - $50,000',
  '$100,001 - $250,000',
  '$1,000,001 - $5,000,000',
  'Over $50,000,000',
];
const uuid = (prefix: string, n: number) => `00000000-0000-4000-${prefix}-${n.toString(16).padStart(12, '0')}`;

async function load(): Promise<void> {
  const next = random(42);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const trades = Array.from({ length: 160 }, (_, n) => {
    const [bioguideId, memberName] = pick(MEMBERS);
    const tradeDate = daysAgo(Math.floor(next() * 110));
    const amountRange = pick(AMOUNTS);
    // A few purchases stored without parsed bounds (older rows): they count as the smallest bucket's floor.
    const bounds = next() < 0.05 ? { low: null, high: null } : parseAmountRange(amountRange);
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
      amountRange,
      amountLow: bounds.low,
      amountHigh: bounds.high,
      tradeDate,
      disclosureDate: new Date(tradeDate.getTime() + 20 * DAY),
      source: 'test',
      naturalKey: `t${n}`,
      supersededById: next() < 0.1 ? uuid('8000', 0) : null,
    };
  });
  // Purchases of one ticker on the newest day, on the first day of a 90-day window through it and on the day
  // before that: a window counts the first and leaves the one before out.
  trades.push(
    ...[0, 90, 91].map((days, n) => ({
      ...trades[1]!,
      id: uuid('8001', n),
      ticker: 'AAA',
      tradeType: 'purchase',
      tradeDate: daysAgo(days),
      disclosureDate: new Date(daysAgo(days).getTime() + 20 * DAY),
      naturalKey: `edge${n}`,
      supersededById: null,
    })),
  );
  const windowStart = Date.now() - 30 * DAY;
  const signals = Array.from({ length: 400 }, (_, n) => {
    // A tenth of the signals fall within a minute of the window's start, on either side.
    const createdAt =
      n % 10 === 0
        ? new Date(windowStart + (next() < 0.5 ? -1 : 1) * 60_000 * (1 + next()))
        : new Date(Date.now() - next() * 120 * DAY);
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

const DAY_MS = 86_400_000;

/** The specification over every raw row of the window, evidence cut as the route cuts it. */
async function expectedLeads(window: ConvergenceWindow): Promise<Lead[]> {
  const purchases = await db.prisma.congressionalTrade.findMany({
    where: {
      supersededById: null,
      tradeType: 'purchase',
      ticker: { not: null },
      tradeDate: { gte: window.from, lte: window.to },
    },
  });
  const signals = await db.prisma.signal.findMany({
    where: { createdAt: { gte: window.signalsFrom, ...(window.signalsUntil ? { lt: window.signalsUntil } : {}) } },
  });
  return convergenceLeads(purchases, signals)
    .slice(0, window.limit)
    .map((lead) => ({
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

/** Windows as the route builds them: through the newest data, `as_of` a past day, a plan history cut mid-day. */
async function windows(): Promise<ConvergenceWindow[]> {
  const newest = (await newestTradeDate(db))!;
  const back = (date: Date, days: number) => new Date(date.getTime() - days * DAY_MS);
  const asOf = daysAgo(30);
  return [
    { from: back(newest, 90), to: newest, signalsFrom: back(newest, 90), signalsUntil: null, limit: 100 },
    { from: back(asOf, 60), to: asOf, signalsFrom: back(asOf, 60), signalsUntil: back(asOf, -1), limit: 100 },
    // The boundary signals sit a minute either side of this instant.
    {
      from: back(newest, 90),
      to: newest,
      signalsFrom: new Date(Date.now() - 30 * DAY),
      signalsUntil: null,
      limit: 100,
    },
    {
      from: back(newest, 90),
      to: newest,
      signalsFrom: new Date(Date.now() - 7 * DAY),
      signalsUntil: daysAgo(2),
      limit: 3,
    },
  ];
}

beforeAll(async () => {
  store = await createTestDatabases();
  db = store.databases.sandbox;
  await load();
});

afterAll(async () => {
  await store?.drop();
});

describe('convergence leads in SQL', () => {
  it('equal the specification over the raw rows for every kind of window, order, counts, members and evidence included', async () => {
    for (const window of await windows()) {
      const expected = await expectedLeads(window);
      expect(expected.length).toBeGreaterThanOrEqual(Math.min(3, window.limit));
      expect(comparable(await convergenceLeadsFromDatabase(db, window))).toEqual(comparable(expected));
    }
  });

  it('counts nothing after the last day of an as_of window, and nothing before its first', async () => {
    const [, past] = await windows();
    // Purchases after the window's end: the route reads the window's purchases, not each member's latest.
    const [newest] = await db.sql.query<{ newest: string }>(
      `SELECT max(trade_date)::text AS newest FROM congressional_trades WHERE superseded_by_id IS NULL AND trade_type = 'purchase'`,
    );
    expect(newest!.newest > past!.to.toISOString().slice(0, 10)).toBe(true);
    const leads = await convergenceLeadsFromDatabase(db, past!);
    expect(leads.length).toBeGreaterThan(0);
    for (const lead of leads) {
      expect(lead.lastPurchaseDate.getTime()).toBeLessThanOrEqual(past!.to.getTime());
      expect(lead.firstPurchaseDate.getTime()).toBeGreaterThanOrEqual(past!.from.getTime());
      expect(lead.lastSignalAt.getTime()).toBeLessThan(past!.signalsUntil!.getTime());
    }
  });

  it('names a member as in their newest purchase, once', async () => {
    const [window] = await windows();
    for (const lead of await convergenceLeadsFromDatabase(db, window!)) {
      expect(lead.congressMembers.filter((name) => name.includes('Able')).length).toBeLessThanOrEqual(1);
    }
  });

  it('counts records written since the last refresh once the rollups are refreshed', async () => {
    const [window] = await windows();
    const before = await convergenceLeadsFromDatabase(db, window!);
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
    const after = (await convergenceLeadsFromDatabase(db, window!)).find((row) => row.ticker === lead.ticker)!;
    expect(after.totalSignals).toBe(lead.totalSignals + 1);
    expect(after.bearishSignals).toBe(lead.bearishSignals + 1);
    expect(comparable(await convergenceLeadsFromDatabase(db, window!))).toEqual(
      comparable(await expectedLeads(window!)),
    );
  });
});
