import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../gateway/auth/api-keys.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import { resetSeedTables, seedDatabase } from '../../prisma/seed/index.ts';
import { runImport } from '../../gateway/import/run.ts';
import { announceBriefings, announceConvergenceChanges } from '../../subgraphs/markets/webhooks/announcements.ts';
import { REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { Receiver, eventually, verifyEndpoint } from './receiver.ts';

/** Each event kind from where its data changes, delivered to a real receiver that verifies every signature. */
const SANDBOX_CREDITS = 30;
let service: TestService;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  service = await startTestService({
    sandboxScale: 10,
    server: {
      // Above production's 10 a second per endpoint: the reseed sends one endpoint 200 events.
      webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 2_000, attemptsPerEndpointPerSecond: 1_000 },
      limits: createLimits({ sandboxCredits: SANDBOX_CREDITS }),
      reportWorker: { pollMs: 50 },
    },
  });
});
afterAll(async () => {
  await service?.stop();
  await receiver.stop();
});
beforeEach(() => {
  receiver.answer = 204;
});

/** `verifyKey`: another key of the account verifies the endpoint, for a test that counts `key`'s calls. */
async function register(name: string, key: string, body: Record<string, unknown>, verifyKey = key) {
  const created = await service.request('POST', '/api/webhooks', { key, body: { url: receiver.url(name), ...body } });
  expect(created.status, created.text).toBe(201);
  receiver.secrets.set(name, created.body.secret);
  await verifyEndpoint((method, path) => service.request(method, path, { key: verifyKey }), created.body.id);
  return created.body as { id: string };
}

/** The receiver's events for one endpoint once there are `count` of them (and no more after a moment). */
async function receive(name: string, count: number, timeoutMs?: number) {
  const events = await eventually(() => {
    const got = receiver.of(name);
    expect(got).toHaveLength(count);
    return got;
  }, timeoutMs);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(receiver.of(name)).toHaveLength(count);
  return events;
}

const query = <Row = any>(mode: 'live' | 'sandbox', text: string, params: unknown[] = []) =>
  service.databases[mode].sql.query<Row>(text, params);

describe('a Form 4 filing imported', () => {
  it('sends insider_trade.filed, the filtered signal.created and watchlist.activity to the account watching it', async () => {
    const { key } = await service.createKey({ mode: 'live' });
    const watcher = await service.createKey({ mode: 'live' });
    const bystander = await service.createKey({ mode: 'live' });
    await register('insider', key, {
      events: ['insider_trade.filed', 'signal.created'],
      filters: { signal_types: ['insider_buy'] },
    });
    await register('sells', key, { events: ['signal.created'], filters: { signal_types: ['insider_sell'] } });
    await register('watch', watcher.key, { events: ['watchlist.activity'] });
    for (const account of [watcher, bystander]) {
      expect(
        (await service.request('POST', '/api/watchlist', { key: account.key, body: { ticker: 'SNOW' } })).status,
      ).toBe(201);
    }

    await runImport(service.databases.live, 'form4', [REAL_FILES.form4], { now: SNAPSHOT_DAY });
    const [insider] = await query<{ n: number }>(
      'live',
      `SELECT count(*)::int AS n FROM insider_transactions WHERE ticker = 'SNOW'`,
    );
    const signals = await query<{ id: string; signal_type: string }>(
      'live',
      `SELECT id, signal_type FROM signals WHERE ticker = 'SNOW'`,
    );
    expect(insider!.n).toBe(7);
    expect(signals.map((signal) => signal.signal_type)).toEqual(['insider_sell']);

    // signal_types narrows signals only: every insider trade, and no insider_sell signal.
    const trades = await receive('insider', insider!.n);
    expect(new Set(trades.map((event) => event.type))).toEqual(new Set(['insider_trade.filed']));
    const listed = await service.request('GET', '/api/insider-trades?ticker=SNOW&limit=50', { key });
    expect(listed.status, listed.text).toBe(200);
    for (const event of trades) {
      const row = listed.body.trades.find((trade: { id: string }) => trade.id === event.data.id);
      expect(row).toMatchObject(event.data);
    }
    const [sell] = await receive('sells', 1);
    const shown = await service.request('GET', '/api/signals?ticker=SNOW', { key });
    expect(shown.body.signals[0]).toEqual(sell!.data);

    const watched = await receive('watch', insider!.n + 1);
    for (const event of watched) {
      expect(event.type).toBe('watchlist.activity');
      expect(event.data.ticker).toBe('SNOW');
      expect(['insider_trade.filed', 'signal.created']).toContain(event.data.event.type);
      expect(event.data.event.id).toMatch(/^msg_/);
    }
    // The bystander watches SNOW but listens for nothing: no event was written for it.
    const [written] = await query<{ n: number }>(
      'live',
      `SELECT count(*)::int AS n FROM webhook_events WHERE type = 'watchlist.activity' AND attributes->>'account_id' = $1`,
      [bystander.accountId],
    );
    expect(written!.n).toBe(0);
  });
});

describe('the report worker', () => {
  it('sends report.completed to the account that queued the report, and to no other', async () => {
    const owner = await service.createKey({ mode: 'sandbox' });
    const other = await service.createKey({ mode: 'sandbox' });
    await register('reports', owner.key, { events: ['report.completed', 'report.failed'] });
    await register('others', other.key, { events: ['report.completed'] });
    const queued = await service.request('POST', '/api/v1/reports/generate', {
      key: owner.key,
      body: { vertical: 'b2b', format: 'csv' },
    });
    expect(queued.status, queued.text).toBe(202);
    const [done] = await receive('reports', 1);
    const job = await service.request('GET', `/api/v1/reports/${queued.body.data.id}`, { key: owner.key });
    expect(done).toMatchObject({ type: 'report.completed', data: job.body.data });
    expect(done!.data).toMatchObject({
      status: 'completed',
      download_url: `/api/v1/reports/${queued.body.data.id}/download`,
    });
    expect(receiver.of('others')).toEqual([]);
  });
});

describe('a sandbox key running low', () => {
  it('sends credits.low once, on the call that leaves less than a tenth of the credits', async () => {
    const { key, accountId } = await service.createKey({ mode: 'sandbox' });
    const { key: verifyKey } = await createApiKey(service.databases.live, accountId, 'sandbox');
    await register('credits', key, { events: ['credits.low'] }, verifyKey);
    // The registration was call 1; 27 more leave 2 of 30 (under 3): the 27th crosses.
    for (let call = 0; call < 27; call += 1) {
      expect((await service.request('GET', '/api/v1/usage', { key })).status).toBe(200);
    }
    const [low] = await receive('credits', 1);
    expect(low!.data).toEqual({
      key_prefix: key.slice(0, low!.data.key_prefix.length),
      remaining: 2,
      limit: SANDBOX_CREDITS,
    });
    expect((await service.request('GET', '/api/v1/usage', { key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.of('credits')).toHaveLength(1);
  });
});

describe('briefings and convergence leads', () => {
  it('announces a day’s briefing once, as /api/briefings lists it', async () => {
    const { key } = await service.createKey({ mode: 'live' });
    await register('briefings', key, { events: ['briefing.published'] });
    await query(
      'live',
      `INSERT INTO signals (id, ticker, company_name, signal_type, filing_type, ai_summary, materiality_score,
                          sentiment, urgent, source_url, source_key, created_at)
                         VALUES (gen_random_uuid(), 'ZZZ', 'Zed Corp', 'sec_filing', '8-K', 'A filing.', 50, 'BULLISH', false,
                          'https://www.sec.gov/x', 'briefing-test', now())`,
    );
    await query('live', 'SELECT markets_refresh_rollups()');
    expect(await announceBriefings(service.databases.live, new Date())).toBeGreaterThanOrEqual(1);
    expect(await announceBriefings(service.databases.live, new Date())).toBe(0);
    const events = await eventually(() => {
      const got = receiver.of('briefings');
      expect(got.length).toBeGreaterThanOrEqual(1);
      return got;
    });
    const today = new Date().toISOString().slice(0, 10);
    const announced = events.find((event) => event.data.date === today);
    const listed = await service.request('GET', '/api/briefings?limit=1', { key });
    expect(announced?.data).toEqual(listed.body.briefings[0]);
  });

  it('announces a lead entering, its score moving by 10 or more, and leaving', async () => {
    const { key } = await service.createKey({ mode: 'sandbox' });
    await register('leads', key, { events: ['convergence_lead.changed'], filters: { tickers: ['QQQZ'] } });
    const db = service.databases.sandbox;
    // Seeded leads are announced already; what follows is about one new ticker.
    await announceConvergenceChanges(db);
    const [newest] = await query<{ day: string }>(
      'sandbox',
      `SELECT max(trade_date)::text AS day FROM congressional_trades WHERE superseded_by_id IS NULL`,
    );
    const purchase = (n: number) =>
      query(
        'sandbox',
        `INSERT INTO congressional_trades (id, member_name, chamber, ticker, asset_description, asset_type,
                          trade_type, owner, amount_range, amount_low, amount_high, trade_date, disclosure_date,
                          disclosure_lag_days, late, source, natural_key)
                        VALUES (gen_random_uuid(), $1, 'house', 'QQQZ', 'Q Corp', 'Stock', 'purchase', 'self',
                          '$1,001 - $15,000', 1001, 15000, $2::date, $2::date, 0, false, 'test', $3)`,
        [`Member ${n}`, newest!.day, `qqqz-${n}`],
      );
    const signal = (n: number, sentiment: string) =>
      query(
        'sandbox',
        `INSERT INTO signals (id, ticker, company_name, signal_type, filing_type, ai_summary, materiality_score,
                          sentiment, urgent, source_url, source_key, created_at)
                        VALUES (gen_random_uuid(), 'QQQZ', 'Q Corp', 'sec_filing', '8-K', 'A filing.', 60, $1, false,
                          'https://www.sec.gov/q', $2, $3::date + interval '1 hour')`,
        [sentiment, `qqqz-signal-${n}`, newest!.day],
      );
    const announce = async () => {
      await query('sandbox', 'SELECT markets_refresh_rollups()');
      return announceConvergenceChanges(db);
    };
    await purchase(1);
    await signal(1, 'BULLISH');
    expect(await announce()).toBeGreaterThanOrEqual(1);
    const [entered] = await receive('leads', 1);
    expect(entered!.data).toMatchObject({ change: 'entered', previous_score: null, lead: { ticker: 'QQQZ' } });
    const listed = await service.request('GET', '/api/leads/convergence?limit=100', { key });
    const lead = listed.body.leads.find((row: { ticker: string }) => row.ticker === 'QQQZ');
    const { purchases: _p, signals: _s, ...summary } = lead;
    expect(entered!.data.lead).toEqual(summary);

    // Three more members buying moves the score by 10 or more; announcing again without a change says nothing.
    for (const n of [2, 3, 4]) await purchase(n);
    await announce();
    const [, moved] = await receive('leads', 2);
    expect(moved!.data).toMatchObject({ change: 'moved', previous_score: entered!.data.lead.score });
    expect(moved!.data.lead.score - entered!.data.lead.score).toBeGreaterThanOrEqual(10);
    await announce();
    await query('sandbox', `DELETE FROM signals WHERE ticker = 'QQQZ'`);
    await announce();
    const [, , left] = await receive('leads', 3);
    expect(left!.data).toMatchObject({ change: 'left', previous_score: moved!.data.lead.score });
  });
});

describe('a sandbox reseed under an existing endpoint', () => {
  it('sends the seeded signals as signal.created', async () => {
    const { key } = await service.createKey({ mode: 'sandbox' });
    await register('reseed', key, { events: ['signal.created'] });
    const db = service.databases.sandbox;
    await resetSeedTables(db);
    await seedDatabase(db, { scale: 3, seed: 3 });
    const [signals] = await query<{ n: number }>('sandbox', 'SELECT count(*)::int AS n FROM signals');
    expect(signals!.n).toBeGreaterThan(0);
    // One endpoint receives them one attempt at a time (docs/webhooks.md "Rate per endpoint"; this server's rate
    // is raised, so the receiver's answers pace them).
    const events = await receive('reseed', signals!.n, 50_000);
    expect(new Set(events.map((event) => event.data.id)).size).toBe(signals!.n);
  });
});

describe('destinations without WEBHOOK_ALLOW_PRIVATE', () => {
  let strict: TestService;
  beforeAll(async () => {
    strict = await startTestService({ server: { webhooks: { allowPrivate: false } } });
  });
  afterAll(() => strict?.stop());

  it('refuses http, loopback, private and link-local destinations, in any spelling, with a 400 naming url', async () => {
    const { key } = await strict.createKey({ mode: 'live' });
    for (const [url, message] of [
      ['http://example.com/hooks', 'must be an https URL'],
      ['https://127.0.0.1/hooks', 'the host resolves to a loopback address'],
      ['https://localhost/hooks', 'the host resolves to a loopback address'],
      ['https://10.1.2.3/hooks', 'the host resolves to a private-network address'],
      ['https://169.254.169.254/latest/meta-data', 'the host resolves to a link-local address'],
      ['https://[::ffff:192.168.0.1]/hooks', 'the host resolves to a private-network address'],
      ['https://[::127.0.0.1]/', 'the host resolves to a loopback address'],
      ['https://[::169.254.169.254]/', 'the host resolves to a link-local address'],
      ['https://[::10.0.0.1]/', 'the host resolves to a private-network address'],
    ]) {
      const refused = await strict.request('POST', '/api/webhooks', { key, body: { url, events: ['signal.created'] } });
      expectError(refused, 400, 'invalid_parameter', ['url']);
      expect(refused.body.details.url).toContain(message);
      expect(refused.body.details.url).not.toMatch(/\d\.\d|::/); // the rule, never the address it resolved to
    }
    expect(await strict.databases.live.sql.query(`SELECT count(*)::int AS n FROM webhook_endpoints`)).toEqual([
      { n: 0 },
    ]);
  });
});
