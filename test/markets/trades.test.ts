import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { convergenceScore } from '../../subgraphs/markets/convergence-score.ts';
import { expectError } from '../support/expect-error.ts';
import { day, isoDay, loadMarketFixture, signalId, tradeId } from './fixture.ts';

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService();
  await loadMarketFixture(service.databases.sandbox);
  ({ key } = await service.createKey({ plan: 'institutional' }));
});
afterAll(() => service?.stop());

const TRADE_KEYS = [
  'amount_high',
  'amount_low',
  'amount_range',
  'asset_description',
  'asset_type',
  'bioguide_id',
  'chamber',
  'committee_overlap',
  'disclosure_date',
  'disclosure_lag_days',
  'filing_url',
  'id',
  'late',
  'member_name',
  'option_detail',
  'overlapping_committees',
  'owner',
  'party',
  'source',
  'ticker',
  'trade_date',
  'trade_type',
];

/** Ids of the trades in force matching a SQL condition, newest trade first: the database's own answer. */
async function tradeIds(where: string, params: unknown[] = []): Promise<string[]> {
  const rows = await service.databases.sandbox.sql.query<{ id: string }>(
    `SELECT id FROM congressional_trades WHERE superseded_by_id IS NULL AND ${where} ORDER BY trade_date DESC, id DESC`,
    params,
  );
  return rows.map((row) => row.id);
}

const idsOf = (body: { trades: { id: string }[] }) => body.trades.map((trade) => trade.id);
const ninetyDaysAgo = () => day(90);

describe('GET /api/congressional-trades', () => {
  it('lists the last 90 days by default with the documented and derived fields', async () => {
    const response = await service.get('/api/congressional-trades', key);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      'count',
      'page',
      'pages',
      'total',
      'total_is_estimate',
      'trades',
    ]);
    const expected = await tradeIds('trade_date >= $1', [ninetyDaysAgo()]);
    expect(idsOf(response.body)).toEqual(expected);
    expect(response.body).toMatchObject({ total: expected.length, count: expected.length, page: 1, pages: 1 });
    for (const trade of response.body.trades) expect(Object.keys(trade).sort()).toEqual(TRADE_KEYS);
    const pelosi = response.body.trades.find((trade: { id: string }) => trade.id === tradeId('t1'));
    expect(pelosi).toMatchObject({
      member_name: 'Nancy Pelosi',
      bioguide_id: 'P000197',
      party: 'D',
      chamber: 'house',
      ticker: 'NVDA',
      trade_type: 'purchase',
      amount_range: '$1,000,001 - $5,000,000',
      amount_low: 1000001,
      amount_high: 5000000,
      trade_date: isoDay(10),
      disclosure_date: isoDay(5),
      disclosure_lag_days: 5,
      late: false,
    });
    const cruz = response.body.trades.find((trade: { id: string }) => trade.id === tradeId('t2'));
    expect(cruz).toMatchObject({ disclosure_lag_days: 60, late: true });
    const open = response.body.trades.find((trade: { id: string }) => trade.id === tradeId('t5'));
    expect(open).toMatchObject({ amount_range: 'Over $50,000,000', amount_low: 50000001, amount_high: null });
    const undisclosed = response.body.trades.find((trade: { id: string }) => trade.id === tradeId('t8'));
    expect(undisclosed).toMatchObject({ disclosure_date: null, disclosure_lag_days: null, late: false });
    // The amended original is replaced by its amendment.
    expect(idsOf(response.body)).not.toContain(tradeId('t7'));
  });

  it('checks each filter against the database', async () => {
    const cases: [string, string, unknown[]][] = [
      ['chamber=senate', `chamber = 'senate' AND trade_date >= $1`, [ninetyDaysAgo()]],
      ['party=D', `party = 'D' AND trade_date >= $1`, [ninetyDaysAgo()]],
      ['ticker=nvda', `ticker = 'NVDA' AND trade_date >= $1`, [ninetyDaysAgo()]],
      ['trade_type=purchase', `trade_type = 'purchase' AND trade_date >= $1`, [ninetyDaysAgo()]],
      ['days=365', `trade_date >= $1`, [day(365)]],
      ['days=12', `trade_date >= $1`, [day(12)]],
      [`from=${isoDay(100)}`, `trade_date >= $1`, [day(100)]],
      [`to=${isoDay(30)}`, `trade_date <= $1`, [day(30)]],
      [`from=${isoDay(70)}&to=${isoDay(15)}`, `trade_date BETWEEN $1 AND $2`, [day(70), day(15)]],
      [
        'chamber=house&days=365&trade_type=sale_partial',
        `chamber = 'house' AND trade_type = 'sale_partial' AND trade_date >= $1`,
        [day(365)],
      ],
    ];
    for (const [query, where, params] of cases) {
      const response = await service.get(`/api/congressional-trades?${query}`, key);
      const expected = await tradeIds(where, params);
      expect(idsOf(response.body), query).toEqual(expected);
      expect(response.body.total, query).toBe(expected.length);
      expect(expected.length, query).toBeGreaterThan(0);
    }
  });

  it('matches partial member names in either order, any case, accents folded', async () => {
    const pelosi = await tradeIds(`bioguide_id = 'P000197'`);
    for (const member of ['Pelosi', 'nancy pelosi', 'Pelosi, Nancy', 'PELOSI NANCY', 'Rep. Nancy Pelosi', 'pelo']) {
      const response = await service.get(
        `/api/congressional-trades?days=3650&member=${encodeURIComponent(member)}`,
        key,
      );
      expect(idsOf(response.body), member).toEqual(pelosi);
    }
    const velazquez = await tradeIds(`bioguide_id = 'V000081'`);
    for (const member of ['velazquez', 'Velázquez, Nydia', 'VELÁZQUEZ']) {
      const response = await service.get(
        `/api/congressional-trades?days=3650&member=${encodeURIComponent(member)}`,
        key,
      );
      expect(idsOf(response.body), member).toEqual(velazquez);
    }
    const none = await service.get('/api/congressional-trades?member=Washington', key);
    expect(none.body).toMatchObject({ trades: [], total: 0, count: 0 });
  });

  it('refuses bad input with the documented error body', async () => {
    const bad: [string, string[]][] = [
      ['limit=201', ['limit']],
      ['limit=abc', ['limit']],
      ['page=-1', ['page']],
      [`from=${isoDay(10)}&to=${isoDay(20)}`, ['from']],
      ['from=2026-02-30', ['from']],
      ['to=20260101', ['to']],
      [`days=30&from=${isoDay(40)}`, ['days']],
      ['days=0', ['days']],
      ['days=99999', ['days']],
      ['chamber=lords', ['chamber']],
      ['party=X', ['party']],
      ['trade_type=gift', ['trade_type']],
      ['member=%2C%2C', ['member']],
      ['ticker=$$$', ['ticker']],
    ];
    for (const [query, parameters] of bad) {
      expectError(await service.get(`/api/congressional-trades?${query}`, key), 400, 'invalid_parameter', parameters);
    }
    expect((await service.get('/api/congressional-trades?limit=200', key)).status).toBe(200);
  });

  it('pages', async () => {
    const first = await service.get('/api/congressional-trades?days=3650&limit=3', key);
    const second = await service.get('/api/congressional-trades?days=3650&limit=3&page=2', key);
    expect(first.body).toMatchObject({ count: 3, page: 1, pages: Math.ceil(first.body.total / 3) });
    expect([...idsOf(first.body), ...idsOf(second.body)]).toEqual((await tradeIds('true')).slice(0, 6));
  });
});

describe('GET /api/congressional-trades/summary', () => {
  it('ranks members and tickers of the last 90 days by trades', async () => {
    const response = await service.get('/api/congressional-trades/summary', key);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ days: 90, from: isoDay(90) });
    expect(response.body.total_trades).toBe((await tradeIds('trade_date >= $1', [ninetyDaysAgo()])).length);
    expect(response.body.top_tickers[0]).toEqual({ ticker: 'NVDA', trades: 3, purchases: 2, sales: 1, members: 3 });
    expect(response.body.top_members[0]).toMatchObject({
      bioguide_id: 'T000250',
      member_name: 'John Thune',
      trades: 2,
      purchases: 1,
    });
    const trades = response.body.top_members.map((member: { trades: number }) => member.trades);
    expect(trades).toEqual([...trades].sort((a, b) => b - a));
    expectError(await service.get('/api/congressional-trades/summary?days=0', key), 400, 'invalid_parameter', ['days']);
  });
});

describe('GET /api/search/members', () => {
  it('finds members by partial name in either order, ranked by similarity', async () => {
    for (const q of ['Pelosi', 'nancy pelosi', 'Pelosi, Nancy', 'PELOSI']) {
      const response = await service.get(`/api/search/members?q=${encodeURIComponent(q)}`, key);
      expect(response.status).toBe(200);
      expect(
        response.body.members.map((member: { bioguide_id: string }) => member.bioguide_id),
        q,
      ).toEqual(['P000197']);
    }
    const accented = await service.get('/api/search/members?q=velazquez', key);
    expect(accented.body.members[0]).toMatchObject({
      bioguide_id: 'V000081',
      name: 'Nydia Velázquez',
      party: 'D',
      chamber: 'house',
      state: 'NY',
      trades_count: 1,
    });
    expect(accented.body.members[0].similarity).toBeGreaterThan(0);
    // "n" matches several members: the closest name ranks first.
    const many = await service.get('/api/search/members?q=n', key);
    const similarities = many.body.members.map((member: { similarity: number }) => member.similarity);
    expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
    expect(many.body.count).toBe(many.body.members.length);
  });

  it('refuses a missing or empty query', async () => {
    expectError(await service.get('/api/search/members', key), 400, 'invalid_parameter', ['q']);
    expectError(await service.get('/api/search/members?q=%20', key), 400, 'invalid_parameter', ['q']);
    expectError(await service.get('/api/search/members?q=pelosi&limit=51', key), 400, 'invalid_parameter', ['limit']);
  });
});

describe('GET /api/leads/convergence', () => {
  /** The newest trade date in force, as the database has it: the default window's last day. */
  async function newestTradeDay(): Promise<string> {
    const [row] = await service.databases.sandbox.sql.query<{ newest: string }>(
      'SELECT max(trade_date)::text AS newest FROM congressional_trades WHERE superseded_by_id IS NULL',
    );
    return row!.newest;
  }
  const daysBefore = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

  /** One ticker's purchases and signals of a window, counted by the database, scored by the specification. */
  async function expectedScore(ticker: string, from: string, to: string, signalsUntil: string | null) {
    const [row] = await service.databases.sandbox.sql.query<{
      buys: number;
      members: number;
      amount: number;
      signals: number;
      bullish: number;
      neutral: number;
    }>(
      `SELECT (SELECT count(*)::int FROM congressional_trades WHERE ticker = $1 AND superseded_by_id IS NULL
                 AND trade_type = 'purchase' AND trade_date BETWEEN $2::date AND $3::date) AS buys,
              (SELECT count(DISTINCT bioguide_id)::int FROM congressional_trades WHERE ticker = $1
                 AND superseded_by_id IS NULL AND trade_type = 'purchase' AND trade_date BETWEEN $2::date AND $3::date) AS members,
              (SELECT sum((amount_low + coalesce(amount_high, amount_low)) / 2)::float8 FROM congressional_trades
                WHERE ticker = $1 AND superseded_by_id IS NULL AND trade_type = 'purchase'
                  AND trade_date BETWEEN $2::date AND $3::date) AS amount,
              count(*)::int AS signals, count(*) FILTER (WHERE sentiment = 'BULLISH')::int AS bullish,
              count(*) FILTER (WHERE sentiment = 'NEUTRAL')::int AS neutral
         FROM signals WHERE ticker = $1 AND created_at >= $2::date AND ($4::date IS NULL OR created_at < $4::date)`,
      [ticker, from, to, signalsUntil],
    );
    const evidence = { ...row!, purchaseAmount: row!.amount, bearish: row!.signals - row!.bullish - row!.neutral };
    return { evidence, score: convergenceScore(evidence).score };
  }

  it('counts the 90 days up to the newest trade, with the documented fields, score and evidence', async () => {
    const response = await service.get('/api/leads/convergence?evidence=true', key);
    expect(response.status).toBe(200);
    const { leads, window } = response.body;
    const to = await newestTradeDay();
    // XOM's exchange, 5 days ago, is the newest trade; signals after it still count (disclosures lag).
    expect(to).toBe(isoDay(5));
    expect(window).toEqual({
      from: daysBefore(to, 90),
      to,
      days: 90,
      basis: 'newest_trade',
      signals_from: `${daysBefore(to, 90)}T00:00:00.000Z`,
      signals_until: null,
    });
    // NVDA: Pelosi ($1M-5M) and Cruz ($15k-50k) bought, 2 bullish + 1 neutral signal. AAPL: Sanders bought
    // ($1k-15k; Cruz's AAPL purchase was amended away), one bearish and one neutral signal. AMZN's purchase is
    // 100 days old, MSFT has no signal: no leads.
    expect(leads.map((lead: { ticker: string }) => lead.ticker)).toEqual(['NVDA', 'AAPL']);
    const nvda = await expectedScore('NVDA', window.from, to, null);
    expect(leads[0]).toMatchObject({
      ticker: 'NVDA',
      company_name: 'NVIDIA Corporation',
      congress_buys: 2,
      total_signals: 3,
      bullish_signals: 2,
      bearish_signals: 0,
      purchase_amount: nvda.evidence.purchaseAmount,
      congress_members: ['Nancy Pelosi', 'Ted Cruz'],
      score: nvda.score,
      first_purchase_date: isoDay(70),
      last_purchase_date: isoDay(10),
    });
    expect(nvda.evidence).toMatchObject({ buys: 2, members: 2, signals: 3 });
    expect(leads[0].purchases.map((trade: { id: string }) => trade.id)).toEqual([tradeId('t1'), tradeId('t2')]);
    expect(leads[0].purchases[0]).toMatchObject({ amount_low: 1000001, amount_high: 5000000 });
    expect(leads[0].signals.map((signal: { id: string }) => signal.id)).toEqual([
      signalId('s1'),
      signalId('s2'),
      signalId('s3'),
    ]);
    const aapl = await expectedScore('AAPL', window.from, to, null);
    expect(leads[1]).toMatchObject({
      ticker: 'AAPL',
      congress_buys: 1,
      total_signals: 2,
      bearish_signals: 1,
      score: aapl.score,
      congress_members: ['Bernie Sanders'],
    });
    expect(leads[1].score).toBeLessThan(leads[0].score);
    expect(leads[1].score_breakdown.signals).toBeLessThan(0);
  });

  it('leaves each lead’s evidence out unless asked, with everything else the same', async () => {
    const withEvidence = (await service.get('/api/leads/convergence?evidence=true', key)).body;
    for (const query of ['', '?evidence=false']) {
      const response = await service.get(`/api/leads/convergence${query}`, key);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        window: withEvidence.window,
        leads: withEvidence.leads.map(({ purchases: _p, signals: _s, ...lead }: Record<string, unknown>) => lead),
      });
    }
    expectError(await service.get('/api/leads/convergence?evidence=yes', key), 400, 'invalid_parameter', ['evidence']);
  });

  it('counts a window as_of a past day, nothing after it', async () => {
    const asOf = isoDay(12);
    const response = await service.get(`/api/leads/convergence?as_of=${asOf}&days=30&evidence=true`, key);
    expect(response.status, response.text).toBe(200);
    const { leads, window } = response.body;
    expect(window).toMatchObject({
      from: isoDay(42),
      to: asOf,
      days: 30,
      basis: 'as_of',
      signals_until: `${isoDay(11)}T00:00:00.000Z`,
    });
    // NVDA's purchases are 10 and 70 days old: outside. AAPL's (15 days) meets its 40-day-old neutral signal; the
    // bearish one of yesterday is after the window.
    expect(leads.map((lead: { ticker: string }) => lead.ticker)).toEqual(['AAPL']);
    const aapl = await expectedScore('AAPL', window.from, asOf, isoDay(11));
    expect(aapl.evidence.signals).toBe(1);
    expect(leads[0]).toMatchObject({
      total_signals: 1,
      bearish_signals: 0,
      score: aapl.score,
      last_purchase_date: isoDay(15),
    });
    expect(leads[0].signals.map((signal: { id: string }) => signal.id)).toEqual([signalId('s5')]);
    // The same through GraphQL, arguments named as there.
    const data = await service.graphql(
      `query ($asOf: String) { convergence(asOf: $asOf, days: 30) { window { from to basis } leads { ticker score } } }`,
      { asOf },
      key,
    );
    expect(data.convergence).toEqual({
      window: { from: isoDay(42), to: asOf, basis: 'as_of' },
      leads: [{ ticker: 'AAPL', score: aapl.score }],
    });
  });

  it('refuses a bad limit, days or as_of with the parameter named', async () => {
    const bad: [string, string][] = [
      ['limit=101', 'limit'],
      ['days=0', 'days'],
      ['days=731', 'days'],
      ['days=ninety', 'days'],
      ['as_of=2026-02-30', 'as_of'],
      ['as_of=yesterday', 'as_of'],
      ['as_of=2026-1-5', 'as_of'],
    ];
    for (const [query, parameter] of bad) {
      expectError(await service.get(`/api/leads/convergence?${query}`, key), 400, 'invalid_parameter', [parameter]);
    }
    expect((await service.get('/api/leads/convergence?days=730&as_of=2026-01-05', key)).status).toBe(200);
  });

  it('counts only the signals the plan may see', async () => {
    const professional = await service.createKey({ plan: 'professional' });
    const response = await service.get('/api/leads/convergence', professional.key);
    const all = (await service.get('/api/leads/convergence', key)).body;
    // Professional history (90 days from now) starts after the window's first day (95 days ago); every fixture
    // signal of the two leads is younger, so the leads are the same.
    expect(Date.parse(response.body.window.signals_from)).toBeGreaterThan(Date.parse(all.window.signals_from));
    expect(Date.parse(response.body.window.signals_from)).toBeGreaterThan(Date.now() - 91 * 86_400_000);
    expect(response.body.leads).toEqual(all.leads);
    // Below professional the route is refused, not emptied.
    const analyst = await service.createKey({ plan: 'analyst' });
    expectError(await service.get('/api/leads/convergence', analyst.key), 403, 'plan_required');
  });
});
