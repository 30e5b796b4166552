import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshMarketRollups } from '../../subgraphs/markets/rollups.ts';
import { SIGNAL_HISTORY_DAYS } from '../../subgraphs/markets/signal-history.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DAY, day, loadMarketFixture } from './fixture.ts';

/**
 * The ticker search's summary adds whole days from the rollups to the first, partial day of the plan's history
 * counted from the signals: it must equal a plain count over the signals for every plan, with signals just
 * inside and just outside each history's first moment.
 */
let service: TestService;
const keys: Record<string, string | undefined> = { analyst: undefined };
const HOUR = 3_600_000;

async function addEdgeSignals(db: Database) {
  const now = Date.now();
  const edges = [7, 90].flatMap((days) => [
    now - days * DAY + HOUR,
    now - days * DAY - HOUR,
    now - days * DAY + 5 * 60_000,
  ]);
  await db.prisma.signal.createMany({
    data: edges.map((time, n) => ({
      ticker: 'NVDA',
      companyName: 'NVIDIA Corporation',
      signalType: 'sec_filing',
      filingType: '8-K',
      aiSummary: 'edge',
      materialityScore: 10,
      sentiment: ['BULLISH', 'BEARISH', 'NEUTRAL'][n % 3]!,
      urgent: false,
      sourceUrl: 'https://www.sec.gov/edge',
      sourceKey: `edge-${n}`,
      createdAt: new Date(time),
    })),
  });
  await refreshMarketRollups(db);
}

beforeAll(async () => {
  service = await startTestService();
  for (const db of [service.databases.sandbox, service.databases.live]) {
    await loadMarketFixture(db);
    await addEdgeSignals(db);
  }
  keys.professional = (await service.createKey({ plan: 'professional' })).key;
  keys.institutional = (await service.createKey({ plan: 'institutional' })).key;
});
afterAll(() => service?.stop());

const SUMMARY_QUERY = `{ ticker(symbol: "NVDA") { summary { signals_total: signalsTotal signals_bullish: signalsBullish
  signals_bearish: signalsBearish signals_neutral: signalsNeutral congress_trades: congressTrades congress_buys: congressBuys
  congress_sells: congressSells } } }`;

describe('ticker search summary', () => {
  for (const plan of ['analyst', 'professional', 'institutional'] as const) {
    it(`counts ${plan} signals of the plan's history and trades of 90 days as the tables say`, async () => {
      const key = keys[plan];
      // The public view reads the live database; the keys here are sandbox keys.
      const db = key ? service.databases.sandbox : service.databases.live;
      const days = SIGNAL_HISTORY_DAYS[plan];
      const since = days === null ? new Date(0) : new Date(Date.now() - days * DAY);
      const [signals] = await db.sql.query<Record<string, number>>(
        `SELECT count(*)::int AS signals_total,
                (count(*) FILTER (WHERE sentiment = 'BULLISH'))::int AS signals_bullish,
                (count(*) FILTER (WHERE sentiment = 'BEARISH'))::int AS signals_bearish,
                (count(*) FILTER (WHERE sentiment = 'NEUTRAL'))::int AS signals_neutral
           FROM signals WHERE ticker = 'NVDA' AND created_at >= $1`,
        [since],
      );
      const [trades] = await db.sql.query<Record<string, number>>(
        `SELECT count(*)::int AS congress_trades,
                (count(*) FILTER (WHERE trade_type = 'purchase'))::int AS congress_buys,
                (count(*) FILTER (WHERE trade_type IN ('sale', 'sale_partial')))::int AS congress_sells
           FROM congressional_trades WHERE ticker = 'NVDA' AND superseded_by_id IS NULL AND trade_date >= $1`,
        [day(90)],
      );
      // The REST route is public (the shortest history); GraphQL with a key has the key's plan.
      const summary = key
        ? ((await service.graphql(SUMMARY_QUERY, {}, key)) as { ticker: { summary: unknown } }).ticker.summary
        : (await service.request('GET', '/api/search?q=NVDA')).body.summary;
      expect(summary).toEqual({ ...signals, ...trades });
      expect(signals!.signals_total).toBeGreaterThan(0);
    });
  }
});
