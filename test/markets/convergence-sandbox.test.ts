import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convergenceLeads } from '../../subgraphs/markets/convergence-score.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/**
 * Convergence over the default sandbox dataset (the generator at SANDBOX_SEED_SCALE's default, 5,000 records per
 * vertical, as `npm start` seeds it): the route's window is the data's, and the score spreads instead of piling
 * up at 100 (docs/api.md "Convergence leads" shows this distribution).
 */

const DEFAULT_SANDBOX_SCALE = 5000;
const DAY_MS = 86_400_000;

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: DEFAULT_SANDBOX_SCALE });
  ({ key } = await service.createKey({ plan: 'institutional' }));
});
afterAll(() => service?.stop());

interface RestLead {
  ticker: string;
  score: number;
}

/** Every lead of the default window, computed by the specification from the database's raw rows. */
async function everyLead(from: string, to: string) {
  const db = service.databases.sandbox;
  const purchases = await db.prisma.congressionalTrade.findMany({
    where: {
      supersededById: null,
      tradeType: 'purchase',
      ticker: { not: null },
      tradeDate: { gte: new Date(`${from}T00:00:00Z`), lte: new Date(`${to}T00:00:00Z`) },
    },
  });
  const signals = await db.prisma.signal.findMany({ where: { createdAt: { gte: new Date(`${from}T00:00:00Z`) } } });
  return convergenceLeads(purchases, signals);
}

describe('convergence on the sandbox data', () => {
  it('counts the 90 days up to the newest trade date, and its 100 best are the best of every lead', async () => {
    const response = await service.get('/api/leads/convergence?limit=100', key);
    expect(response.status, response.text).toBe(200);
    const [newest] = await service.databases.sandbox.sql.query<{ newest: string }>(
      'SELECT max(trade_date)::text AS newest FROM congressional_trades WHERE superseded_by_id IS NULL',
    );
    const { window, leads } = response.body as { window: Record<string, unknown>; leads: RestLead[] };
    const from = new Date(Date.parse(`${newest!.newest}T00:00:00Z`) - 90 * DAY_MS).toISOString().slice(0, 10);
    expect(window).toMatchObject({ to: newest!.newest, from, days: 90, basis: 'newest_trade', signals_until: null });
    const all = await everyLead(from, newest!.newest);
    expect(leads.length).toBe(Math.min(100, all.length));
    expect(leads.map((lead) => [lead.ticker, lead.score])).toEqual(
      all.slice(0, 100).map((lead) => [lead.ticker, lead.score]),
    );
  });

  it('spreads the scores: under 5% at 100 (and under 15% at 90 or more), every decile from 10 to 90 used', async () => {
    const { window } = (await service.get('/api/leads/convergence?limit=1', key)).body as {
      window: { from: string; to: string };
    };
    const scores = (await everyLead(window.from, window.to)).map((lead) => lead.score);
    expect(scores.length).toBeGreaterThan(50);
    expect(scores.filter((score) => score >= 100).length).toBeLessThan(0.05 * scores.length);
    expect(scores.filter((score) => score >= 90).length).toBeLessThan(0.15 * scores.length);
    const deciles = new Set(scores.map((score) => Math.min(9, Math.floor(score / 10))));
    for (let decile = 1; decile <= 8; decile++) expect(deciles.has(decile), `decile ${decile}`).toBe(true);
    // Mostly distinct: the score orders the leads instead of the tie-breakers.
    expect(new Set(scores).size).toBeGreaterThan(0.8 * scores.length);
  });
});
