import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  ({ key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' }));
});
afterAll(() => service?.stop());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('GET /api/signals', () => {
  it('returns the documented signal list, field by field', async () => {
    const response = await service.get('/api/signals', key);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['page', 'pages', 'signals', 'total', 'total_is_estimate']);
    const [stored] = await service.databases.sandbox.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM signals');
    expect(response.body.total).toBe(stored!.n);
    expect(response.body.page).toBe(1);
    expect(response.body.pages).toBe(Math.ceil(stored!.n / 20));
    expect(response.body.signals).toHaveLength(20);
    for (const signal of response.body.signals) {
      expect(Object.keys(signal).sort()).toEqual([
        'ai_summary',
        'company_name',
        'created_at',
        'filing_type',
        'id',
        'materiality_score',
        'sentiment',
        'signal_type',
        'source_url',
        'ticker',
        'urgent',
      ]);
      expect(signal.id).toMatch(UUID);
      expect(typeof signal.ticker).toBe('string');
      expect(typeof signal.company_name).toBe('string');
      expect(['sec_filing', 'insider_buy', 'insider_sell', 'earnings_preview', 'macro']).toContain(signal.signal_type);
      expect(typeof signal.filing_type).toBe('string');
      expect(typeof signal.ai_summary).toBe('string');
      expect(Number.isInteger(signal.materiality_score)).toBe(true);
      expect(signal.materiality_score).toBeGreaterThanOrEqual(0);
      expect(signal.materiality_score).toBeLessThanOrEqual(100);
      expect(['BULLISH', 'BEARISH', 'NEUTRAL']).toContain(signal.sentiment);
      expect(typeof signal.urgent).toBe('boolean');
      expect(signal.source_url).toMatch(/^https?:\/\//);
      expect(signal.created_at).toMatch(ISO_UTC);
    }
    const times = response.body.signals.map((signal: { created_at: string }) => signal.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it.each([
    ['signal_type=insider_buy', "signal_type = 'insider_buy'"],
    ['type=sec_filing', "signal_type = 'sec_filing'"],
    ['sentiment=BEARISH', "sentiment = 'BEARISH'"],
    ['ticker=aapl', "ticker = 'AAPL'"],
  ])('filters by %s', async (query, condition) => {
    const response = await service.get(`/api/signals?${query}&limit=200`, key);
    expect(response.status).toBe(200);
    const [stored] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM signals WHERE ${condition}`,
    );
    expect(response.body.total).toBe(stored!.n);
    expect(response.body.signals.length).toBe(Math.min(200, stored!.n));
  });

  it.each([
    ['limit=201', 'limit'],
    ['limit=0', 'limit'],
    ['page=0', 'page'],
    ['sentiment=happy', 'sentiment'],
    ['signal_type=rumour', 'signal_type'],
    ['ticker=NOT-A-TICKER!', 'ticker'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const response = await service.get(`/api/signals?${query}`, key);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(Object.keys(response.body.details)).toEqual([parameter]);
  });
});
