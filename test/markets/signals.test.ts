import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { expectError } from '../support/expect-error.ts';
import { DAY, HOSTILE_SUMMARY, isoDay, loadMarketFixture } from './fixture.ts';

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService();
  await loadMarketFixture(service.databases.sandbox);
  await loadMarketFixture(service.databases.live);
  ({ key } = await service.createKey({ plan: 'institutional' }));
});
afterAll(() => service?.stop());

const SIGNAL_KEYS = [
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
];

async function countSignals(where: string, params: unknown[] = []) {
  const [row] = await service.databases.sandbox.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM signals WHERE ${where}`,
    params,
  );
  return row!.n;
}

describe('GET /api/signals', () => {
  it('lists signals newest first with the documented fields and the {signals,total,page,pages} body', async () => {
    const response = await service.get('/api/signals', key);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['page', 'pages', 'signals', 'total', 'total_is_estimate']);
    expect(response.body.total).toBe(await countSignals('true'));
    expect(response.body).toMatchObject({ page: 1, pages: 1 });
    for (const signal of response.body.signals) {
      expect(Object.keys(signal).sort()).toEqual(SIGNAL_KEYS);
      expect(signal.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isInteger(signal.materiality_score)).toBe(true);
      expect(['BULLISH', 'BEARISH', 'NEUTRAL']).toContain(signal.sentiment);
      expect(typeof signal.urgent).toBe('boolean');
      expect(signal.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    const times = response.body.signals.map((signal: { created_at: string }) => signal.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('filters by ticker, sentiment and both names of the type filter, as the database says', async () => {
    const byTicker = await service.get('/api/signals?ticker=nvda', key);
    expect(byTicker.body.total).toBe(await countSignals(`ticker = 'NVDA'`));
    expect(byTicker.body.signals.every((signal: { ticker: string }) => signal.ticker === 'NVDA')).toBe(true);
    const bullish = await service.get('/api/signals?sentiment=BULLISH', key);
    expect(bullish.body.total).toBe(await countSignals(`sentiment = 'BULLISH'`));
    for (const name of ['signal_type', 'type']) {
      const typed = await service.get(`/api/signals?${name}=insider_sell`, key);
      expect(typed.body.total).toBe(await countSignals(`signal_type = 'insider_sell'`));
      expect(typed.body.total).toBeGreaterThan(0);
    }
  });

  it('pages with limit and page, and refuses limits above 200', async () => {
    const first = await service.get('/api/signals?limit=2&page=1', key);
    const second = await service.get('/api/signals?limit=2&page=2', key);
    expect(first.body.signals).toHaveLength(2);
    expect(first.body.pages).toBe(Math.ceil(first.body.total / 2));
    const ids = [...first.body.signals, ...second.body.signals].map((signal: { id: string }) => signal.id);
    expect(new Set(ids).size).toBe(4);
    expect((await service.get('/api/signals?limit=200', key)).status).toBe(200);
    expectError(await service.get('/api/signals?limit=201', key), 400, 'invalid_parameter', ['limit']);
    expectError(await service.get('/api/signals?limit=0', key), 400, 'invalid_parameter', ['limit']);
    expectError(await service.get('/api/signals?page=0', key), 400, 'invalid_parameter', ['page']);
    expectError(await service.get('/api/signals?sentiment=HAPPY', key), 400, 'invalid_parameter', ['sentiment']);
    expectError(await service.get('/api/signals?type=rumour', key), 400, 'invalid_parameter', ['type']);
    expectError(await service.get('/api/signals?ticker=TOOLONGTICKER', key), 400, 'invalid_parameter', ['ticker']);
    expectError(await service.get('/api/signals?colour=red', key), 400, 'invalid_parameter', ['colour']);
  });

  it('cuts history by plan: professional keys see 90 days', async () => {
    const professional = await service.createKey({ plan: 'professional' });
    const response = await service.get('/api/signals?limit=200', professional.key);
    const since = new Date(Date.now() - 90 * DAY);
    expect(response.body.total).toBe(await countSignals('created_at >= $1', [since]));
    expect(response.body.total).toBeLessThan(await countSignals('true'));
  });

  it('requires a credential', async () => {
    expectError(await service.request('GET', '/api/signals'), 401, 'unauthorized');
  });
});

describe('GET /api/signals/ticker/:ticker', () => {
  it('lists every signal of the ticker, any case', async () => {
    const response = await service.get('/api/signals/ticker/nvda', key);
    expect(response.status).toBe(200);
    expect(response.body.ticker).toBe('NVDA');
    expect(response.body.total).toBe(await countSignals(`ticker = 'NVDA'`));
    expect(response.body.signals.map((signal: { ticker: string }) => signal.ticker)).toEqual(['NVDA', 'NVDA', 'NVDA']);
  });

  it('is a 404 for an unknown ticker and a 400 for a malformed one', async () => {
    expectError(await service.get('/api/signals/ticker/ZZZZ', key), 404, 'not_found');
    expectError(await service.get('/api/signals/ticker/ABCDEFGHIJK', key), 400, 'invalid_parameter', ['ticker']);
  });
});

describe('macro data', () => {
  it('computes the 2-10 spread and inversion from the latest stored curve', async () => {
    const response = await service.get('/api/signals/macro/yield-curve', key);
    expect(response.status).toBe(200);
    const curve = response.body.yield_curve;
    expect(curve).toMatchObject({ date: isoDay(1), y2: 4.5, y10: 4.2, y30: 4.4, spread_2_10: -0.3, inverted: true });
    const older = await service.get(`/api/signals/macro/yield-curve?date=${isoDay(5)}`, key);
    expect(older.body.yield_curve).toMatchObject({
      date: isoDay(10),
      y2: 4.0,
      y10: 4.3,
      spread_2_10: 0.3,
      inverted: false,
    });
    expectError(await service.get('/api/signals/macro/yield-curve?date=yesterday', key), 400, 'invalid_parameter', [
      'date',
    ]);
    expectError(await service.get(`/api/signals/macro/yield-curve?date=${isoDay(400)}`, key), 404, 'not_found');
  });

  it('gives each indicator its latest value, date and previous value', async () => {
    const response = await service.get('/api/signals/macro/indicators', key);
    expect(response.status).toBe(200);
    const unrate = response.body.indicators.find(
      (indicator: { series_id: string }) => indicator.series_id === 'UNRATE',
    );
    expect(unrate).toEqual({
      series_id: 'UNRATE',
      name: 'Unemployment rate',
      unit: 'percent',
      value: 4.3,
      date: isoDay(30),
      previous_value: 4.1,
      previous_date: isoDay(60),
      change: 0.2,
    });
    const fed = response.body.indicators.find((indicator: { series_id: string }) => indicator.series_id === 'FEDFUNDS');
    expect(fed).toMatchObject({ value: 4.33, previous_value: null, change: null });
  });
});

describe('GET /api/search (no key)', () => {
  it('returns profile, quote from the latest two prices, counts, signals and trades', async () => {
    const response = await service.request('GET', '/api/search?q=nvda');
    expect(response.status).toBe(200);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual([
      'congressional_trades',
      'found',
      'profile',
      'quote',
      'signals',
      'summary',
      'ticker',
    ]);
    expect(body).toMatchObject({ ticker: 'NVDA', found: true });
    // Without a key, the profile's professional fields are null (docs/api.md "Public routes").
    expect(body.profile).toMatchObject({
      companyName: 'NVIDIA Corporation',
      sector: 'Technology',
      ceo: null,
      marketCap: null,
    });
    expect(body.quote).toEqual({
      price: 110,
      change: 10,
      changePct: 10,
      as_of: isoDay(2),
      date: isoDay(2),
      previousClose: 100,
      previousDate: isoDay(3),
    });
    // No key: the public view of signal history is the shortest plan's (7 days), read from the live database.
    const [counts] = await service.databases.live.sql.query<{ total: number; bullish: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE sentiment = 'BULLISH'))::int AS bullish
         FROM signals WHERE ticker = 'NVDA' AND created_at >= $1`,
      [new Date(Date.now() - 7 * DAY)],
    );
    const [buys] = await service.databases.live.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM congressional_trades WHERE ticker = 'NVDA' AND trade_type = 'purchase'
          AND superseded_by_id IS NULL AND trade_date >= $1`,
      [new Date(Date.now() - 91 * DAY)],
    );
    expect(body.summary).toMatchObject({
      signals_total: counts!.total,
      signals_bullish: counts!.bullish,
      congress_buys: buys!.n,
    });
    expect(body.signals).toHaveLength(counts!.total);
    expect(body.congressional_trades.map((trade: { ticker: string }) => trade.ticker)).toEqual([
      'NVDA',
      'NVDA',
      'NVDA',
    ]);
  });

  it('answers found: false for an unknown ticker and a 400 for q over 10 characters or missing', async () => {
    const unknown = await service.request('GET', '/api/search?q=QQQQ');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({
      ticker: 'QQQQ',
      found: false,
      profile: null,
      quote: null,
      signals: [],
      congressional_trades: [],
    });
    expectError(await service.request('GET', '/api/search?q=ABCDEFGHIJK'), 400, 'invalid_parameter', ['q']);
    expectError(await service.request('GET', '/api/search'), 400, 'invalid_parameter', ['q']);
  });

  it('a quote of one stored price has no change', async () => {
    const response = await service.request('GET', '/api/search?q=AAPL');
    expect(response.body.quote).toMatchObject({ price: 201.5, change: null, changePct: null, previousClose: null });
  });
});

describe('GET /api/stats/public (no key)', () => {
  it('counts the live records', async () => {
    const response = await service.request('GET', '/api/stats/public');
    expect(response.status).toBe(200);
    const live = service.databases.live.sql;
    const [row] = await live.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM congressional_trades WHERE superseded_by_id IS NULL) AS trades,
              (SELECT count(*)::int FROM members) AS members,
              (SELECT count(DISTINCT ticker)::int FROM (SELECT ticker FROM signals UNION ALL SELECT ticker FROM congressional_trades) t WHERE ticker IS NOT NULL) AS tickers`,
    );
    expect(response.body).toEqual({
      congressional_trades: row!.trades,
      signals_7d: 4,
      members_tracked: row!.members,
      tickers_tracked: row!.tickers,
      last_updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });
});

describe('GET /api/enrich/:ticker', () => {
  it('returns the cached profile, and 404 for a ticker without one', async () => {
    const response = await service.get('/api/enrich/aapl', key);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      ticker: 'AAPL',
      company_name: 'Apple Inc.',
      sector: 'Technology',
      ceo: 'Tim Cook',
      market_cap: 3.4e12,
    });
    expect(Object.keys(response.body)).toEqual(expect.arrayContaining(['description', 'updated_at', 'industry']));
    expectError(await service.get('/api/enrich/MSFT', key), 404, 'not_found');
  });
});

describe('briefings', () => {
  it('lists the days with signals, disclosures or a stored briefing, newest first', async () => {
    const response = await service.get('/api/briefings?limit=200', key);
    expect(response.status).toBe(200);
    const [expected] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT created_at::date AS d FROM signals UNION
         SELECT disclosure_date FROM congressional_trades WHERE superseded_by_id IS NULL AND disclosure_date IS NOT NULL
         UNION SELECT date FROM briefings) AS days`,
    );
    expect(response.body.total).toBe(expected!.n);
    const dates = response.body.briefings.map((briefing: { date: string }) => briefing.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(response.body.briefings.find((briefing: { date: string }) => briefing.date === isoDay(5))).toEqual({
      date: isoDay(5),
      headline: '0 signals and 1 congressional trade',
      signals_count: 0,
      trades_count: 1,
      url: `/api/briefings/${isoDay(5)}`,
    });
    expect(response.body.briefings.find((briefing: { date: string }) => briefing.date === isoDay(50)).headline).toBe(
      'Quiet <day> & more',
    );
  });

  it('renders a day as a complete HTML page, escaping every value', async () => {
    const response = await service.get(`/api/briefings/${isoDay(2)}`, key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.text).toMatch(/^<!DOCTYPE html>/);
    expect(response.text).toContain('</html>');
    expect(response.text).not.toContain(HOSTILE_SUMMARY);
    expect(response.text).toContain('Item 2.02 &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; results');
    expect(response.text).not.toContain('javascript:');
    // The day's curve is the latest on or before it.
    expect(response.text).toContain(`As of ${isoDay(10)}`);
    const stored = await service.get(`/api/briefings/${isoDay(50)}`, key);
    expect(stored.text).toContain('<h1>Quiet &lt;day&gt; &amp; more</h1>');
    const trades = await service.get(`/api/briefings/${isoDay(5)}`, key);
    expect(trades.text).toContain('Nancy Pelosi');
    expect(trades.text).toContain('$1,000,001 - $5,000,000');
  });

  it('is a 404 for a day without data and a 400 for a malformed date', async () => {
    expectError(await service.get(`/api/briefings/${isoDay(7)}`, key), 404, 'not_found');
    for (const date of ['2026-13-01', 'today', '2026-02-30']) {
      expectError(await service.get(`/api/briefings/${date}`, key), 400, 'invalid_parameter', ['date']);
    }
  });
});
