import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

interface Lead {
  ticker: string;
  score: number;
  congress_buys: number;
  total_signals: number;
  purchases: { trade_date: string }[];
  signals: { created_at: string }[];
}

/**
 * Convergence on real records whose sources end on different days: House disclosures to August 2026, SEC
 * submissions recorded in March 2026. The default window ends on the newest day both reach, and finds the tickers
 * Congress bought while their companies filed.
 */
describe('convergence on the real files', () => {
  let service: TestService;
  let key: string;
  const sql = <Row>(text: string, params: unknown[] = []) => service.databases.live.sql.query<Row>(text, params);

  beforeAll(async () => {
    service = await startTestService();
    const live = service.databases.live;
    const options = { now: SNAPSHOT_DAY };
    await runImport(live, 'members', REAL_FILES.members, options);
    await runImport(live, 'house-trades', [REAL_FILES.house], options);
    await runImport(live, 'sec-submissions', REAL_FILES.recentSubmissions, options);
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  });
  afterAll(() => service?.stop());

  it('ends the window on the newest signal when the signals end before the trades, and ranks the leads in it', async () => {
    const [ends] = await sql<{ trades: string; signals: string }>(
      `SELECT (SELECT max(trade_date)::text FROM congressional_trades WHERE superseded_by_id IS NULL) AS trades,
              (SELECT max(created_at)::date::text FROM signals) AS signals`,
    );
    expect(ends!.signals < ends!.trades).toBe(true);
    const response = await service.get('/api/leads/convergence?evidence=true', key);
    expect(response.status).toBe(200);
    const { window, leads } = response.body as { window: { from: string; to: string; basis: string }; leads: Lead[] };
    const from = new Date(Date.parse(`${ends!.signals}T00:00:00Z`) - 90 * 86_400_000).toISOString().slice(0, 10);
    expect(window).toMatchObject({ to: ends!.signals, from, basis: 'newest_signal' });

    // Every ticker with a purchase and a signal in the window is a lead (fewer than a page of them here).
    const both = await sql<{ ticker: string }>(
      `SELECT DISTINCT t.ticker FROM congressional_trades t
        WHERE t.superseded_by_id IS NULL AND t.trade_type = 'purchase' AND t.trade_date BETWEEN $1::date AND $2::date
          AND EXISTS (SELECT 1 FROM signals s WHERE s.ticker = t.ticker AND s.created_at >= $1::date)
        ORDER BY 1`,
      [from, ends!.signals],
    );
    expect(both.length).toBeGreaterThan(1);
    expect(leads.map((lead) => lead.ticker).sort()).toEqual(both.map((row) => row.ticker));
    const scores = leads.map((lead) => lead.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(scores).size).toBeGreaterThan(1);
    for (const lead of leads) {
      expect(lead.congress_buys).toBeGreaterThan(0);
      expect(lead.total_signals).toBeGreaterThan(0);
      for (const purchase of lead.purchases)
        expect(purchase.trade_date >= from && purchase.trade_date <= window.to).toBe(true);
      for (const signal of lead.signals) expect(signal.created_at.slice(0, 10) >= from).toBe(true);
    }
  });

  it('keeps the window on the newest trade once the signals reach it', async () => {
    // A signal on the newest trade's day (a later SEC answer would bring one): the trades end the window again.
    const [newest] = await sql<{ day: string }>(
      `SELECT max(trade_date)::text AS day FROM congressional_trades WHERE superseded_by_id IS NULL`,
    );
    await sql(
      `INSERT INTO signals (id, ticker, company_name, signal_type, filing_type, ai_summary, materiality_score,
                            sentiment, urgent, source_url, source_key, created_at)
       SELECT gen_random_uuid(), ticker, company_name, signal_type, filing_type, ai_summary, materiality_score,
              sentiment, urgent, source_url, source_key || ':later', $1::date + time '12:00'
         FROM signals WHERE signal_type = 'sec_filing' ORDER BY created_at DESC LIMIT 1`,
      [newest!.day],
    );
    const response = await service.get('/api/leads/convergence', key);
    expect(response.body.window).toMatchObject({ to: newest!.day, basis: 'newest_trade' });
  });
});
