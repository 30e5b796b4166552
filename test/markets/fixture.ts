import { refreshMarketRollups } from '../../subgraphs/markets/rollups.ts';
import { parseAmountRange } from '../../subgraphs/markets/disclosure.ts';
import type { Database } from '../../subgraphs/platform/database.ts';

/**
 * A small hand-built market dataset whose answers are known (convergence scores, changes, spreads), with
 * dates relative to today so the 7/30/90-day windows hold on any day the suite runs.
 */
export const DAY = 86_400_000;

/** Midnight UTC `days` days ago. */
export function day(daysAgo: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysAgo * DAY);
}

/** Noon UTC `days` days ago (signal timestamps). */
export function noon(daysAgo: number): Date {
  return new Date(day(daysAgo).getTime() + 12 * 3_600_000);
}

export const isoDay = (daysAgo: number) => day(daysAgo).toISOString().slice(0, 10);

export const MEMBERS = [
  {
    bioguideId: 'P000197',
    firstName: 'Nancy',
    lastName: 'Pelosi',
    fullName: 'Nancy Pelosi',
    party: 'D',
    chamber: 'house',
    state: 'CA',
    district: '11',
  },
  {
    bioguideId: 'V000081',
    firstName: 'Nydia',
    lastName: 'Velázquez',
    fullName: 'Nydia Velázquez',
    party: 'D',
    chamber: 'house',
    state: 'NY',
    district: '7',
  },
  {
    bioguideId: 'C001098',
    firstName: 'Ted',
    lastName: 'Cruz',
    fullName: 'Ted Cruz',
    party: 'R',
    chamber: 'senate',
    state: 'TX',
    district: null,
  },
  {
    bioguideId: 'S000033',
    firstName: 'Bernie',
    lastName: 'Sanders',
    fullName: 'Bernie Sanders',
    party: 'I',
    chamber: 'senate',
    state: 'VT',
    district: null,
  },
  {
    bioguideId: 'T000250',
    firstName: 'John',
    lastName: 'Thune',
    fullName: 'John Thune',
    party: 'R',
    chamber: 'senate',
    state: 'SD',
    district: null,
  },
];

const memberOf = (id: string) => MEMBERS.find((member) => member.bioguideId === id)!;

/** [key, ticker, bioguide, type, amount, trade days ago, disclosure days ago | null, superseded] */
const TRADES: [string, string, string, string, string, number, number | null, boolean][] = [
  ['t1', 'NVDA', 'P000197', 'purchase', '$1,000,001 - $5,000,000', 10, 5, false],
  ['t2', 'NVDA', 'C001098', 'purchase', '$15,001 - $50,000', 70, 10, false], // lag 60: late
  ['t3', 'NVDA', 'V000081', 'sale', '$1,001 - $15,000', 30, 25, false],
  ['t4', 'AAPL', 'S000033', 'purchase', '$1,001 - $15,000', 15, 12, false],
  ['t5', 'MSFT', 'T000250', 'purchase', 'Over $50,000,000', 40, 30, false],
  ['t6', 'TSLA', 'P000197', 'sale_partial', '$250,001 - $500,000', 120, 100, false],
  ['t7', 'AAPL', 'C001098', 'purchase', '$50,001 - $100,000', 15, 12, true], // amended away
  ['t8', 'XOM', 'T000250', 'exchange', '$100,001 - $250,000', 5, null, false],
  ['t9', 'AMZN', 'P000197', 'purchase', '$15,001 - $50,000', 100, 60, false],
];

export const tradeId = (key: string) => `00000000-0000-4000-8000-00000000000${key.slice(1)}`;

/** [key, ticker, company, type, sentiment, materiality, days ago] */
const SIGNALS: [string, string, string, string, string, number, number][] = [
  ['s1', 'NVDA', 'NVIDIA Corporation', 'sec_filing', 'BULLISH', 80, 2],
  ['s2', 'NVDA', 'NVIDIA Corporation', 'insider_buy', 'BULLISH', 60, 3],
  ['s3', 'NVDA', 'NVIDIA Corporation', 'earnings_preview', 'NEUTRAL', 40, 20],
  ['s4', 'AAPL', 'Apple Inc.', 'insider_sell', 'BEARISH', 55, 1],
  ['s5', 'AAPL', 'Apple Inc.', 'sec_filing', 'NEUTRAL', 30, 40],
  ['s6', 'AMZN', 'Amazon.com, Inc.', 'sec_filing', 'BULLISH', 70, 1],
  ['s7', 'TSLA', 'Tesla, Inc.', 'macro', 'BEARISH', 20, 100],
];

export const signalId = (key: string) => `00000000-0000-4000-9000-00000000000${key.slice(1)}`;

/** A summary with markup in it: the HTML briefing must escape it. */
export const HOSTILE_SUMMARY = 'Item 2.02 <script>alert("x")</script> & results';

export async function loadMarketFixture(db: Database): Promise<{ companyId: number }> {
  const prisma = db.prisma;
  await prisma.member.createMany({ data: MEMBERS.map((member) => ({ ...member, committees: ['Finance'] })) });
  await prisma.congressionalTrade.createMany({
    data: TRADES.map(([key, ticker, bioguideId, tradeType, amountRange, traded, disclosed, superseded]) => ({
      id: tradeId(key),
      bioguideId,
      memberName: memberOf(bioguideId).fullName,
      party: memberOf(bioguideId).party,
      chamber: memberOf(bioguideId).chamber,
      ticker,
      assetDescription: `${ticker} common stock`,
      assetType: 'stock',
      tradeType,
      owner: 'self',
      amountRange,
      // Stored as the importers and the seeder store them (convergence scores by them).
      amountLow: parseAmountRange(amountRange).low,
      amountHigh: parseAmountRange(amountRange).high,
      tradeDate: day(traded),
      disclosureDate: disclosed === null ? null : day(disclosed),
      source: 'fixture',
      filingUrl: `https://disclosures.example.gov/${key}.pdf`,
      naturalKey: key,
      supersededById: superseded ? tradeId('t4') : null,
    })),
  });
  await prisma.signal.createMany({
    data: SIGNALS.map(([key, ticker, companyName, signalType, sentiment, materialityScore, daysAgo]) => ({
      id: signalId(key),
      ticker,
      companyName,
      signalType,
      filingType: signalType === 'sec_filing' ? '8-K' : 'Form 4',
      aiSummary: key === 's1' ? HOSTILE_SUMMARY : `${companyName} ${signalType} signal`,
      materialityScore,
      sentiment,
      urgent: materialityScore >= 80,
      sourceUrl: key === 's1' ? 'javascript:alert(1)' : `https://www.sec.gov/${key}`,
      sourceKey: key,
      createdAt: noon(daysAgo),
    })),
  });
  await prisma.companyProfile.createMany({
    data: [
      {
        ticker: 'NVDA',
        companyName: 'NVIDIA Corporation',
        sector: 'Technology',
        industry: 'Semiconductors',
        marketCap: 3.5e12,
        ceo: 'Jensen Huang',
        description: 'GPUs.',
        cik: '0001045810',
      },
      {
        ticker: 'AAPL',
        companyName: 'Apple Inc.',
        sector: 'Technology',
        industry: 'Consumer Electronics',
        marketCap: 3.4e12,
        ceo: 'Tim Cook',
        description: 'Phones.',
        cik: '0000320193',
      },
    ],
  });
  await prisma.dailyPrice.createMany({
    data: [
      { ticker: 'NVDA', date: day(3), open: 95, high: 101, low: 94, close: 100, volume: 1000n },
      { ticker: 'NVDA', date: day(2), open: 100, high: 111, low: 99, close: 110, volume: 1200n },
      { ticker: 'AAPL', date: day(2), open: 200, high: 202, low: 198, close: 201.5, volume: 900n },
    ],
  });
  // Latest curve inverted (2y 4.50 > 10y 4.20); an older one normal.
  await prisma.yieldCurvePoint.createMany({
    data: [
      { date: day(1), tenorMonths: 3, ratePct: 4.6 },
      { date: day(1), tenorMonths: 24, ratePct: 4.5 },
      { date: day(1), tenorMonths: 120, ratePct: 4.2 },
      { date: day(1), tenorMonths: 360, ratePct: 4.4 },
      { date: day(10), tenorMonths: 24, ratePct: 4.0 },
      { date: day(10), tenorMonths: 120, ratePct: 4.3 },
      { date: day(10), tenorMonths: 360, ratePct: 4.5 },
    ],
  });
  await prisma.macroIndicator.createMany({
    data: [
      { seriesId: 'UNRATE', date: day(60), value: 4.1 },
      { seriesId: 'UNRATE', date: day(30), value: 4.3 },
      { seriesId: 'UNRATE', date: day(90), value: 3.9 },
      { seriesId: 'FEDFUNDS', date: day(30), value: 4.33 },
    ],
  });
  await prisma.briefing.create({
    data: { date: day(50), headline: 'Quiet <day> & more', summary: 'Nothing "moved".' },
  });
  const company = await prisma.company.create({
    data: {
      name: 'NVIDIA Corporation',
      industry: 'semiconductors',
      industryName: 'Semiconductors',
      revenueUsd: 6e10,
      employees: 30000,
      state: 'CA',
      city: 'Santa Clara',
      website: 'https://nvidia.example',
      ticker: 'NVDA',
      foundedYear: 1993,
      aiScore: 90,
      decisionMaker: 'Jensen Huang',
      decisionMakerTitle: 'CEO',
      decisionMakerEmail: 'jensen@nvidia.example',
      contacts: {
        create: [
          {
            firstName: 'Jensen',
            lastName: 'Huang',
            title: 'CEO',
            seniority: 'c_level',
            department: 'executive',
            email: 'jensen@nvidia.example',
            emailVerified: true,
            phone: '555-0100',
            linkedinUrl: 'https://linkedin.example/jensen',
          },
          {
            firstName: 'Colette',
            lastName: 'Kress',
            title: 'CFO',
            seniority: 'c_level',
            department: 'finance',
            email: 'colette@nvidia.example',
            emailVerified: true,
            phone: '555-0101',
            linkedinUrl: 'https://linkedin.example/colette',
          },
        ],
      },
    },
  });
  await refreshMarketRollups(db);
  return { companyId: company.id };
}
