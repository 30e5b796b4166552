import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { upsertRows } from '../../gateway/import/batch-writer.ts';
import { expectError } from '../support/expect-error.ts';
import { REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { Receiver, eventually, verifyEndpoint } from './receiver.ts';

/**
 * The webhook API end to end: a real service on a free port, Institutional keys, a real receiver that verifies
 * every signature with `standardwebhooks`, and the real Senate trades file imported while the server runs.
 */
let service: TestService;
const receiver = new Receiver();
let live: { key: string; accountId: string };

beforeAll(async () => {
  await receiver.start();
  // The worker's default 10 s attempt timeout: with 2 s, a ping answered late under the full suite's load is a
  // failed attempt that waits a minute for its retry, longer than the test waits (the likely cause of one failure).
  service = await startTestService({ server: { webhooks: { allowPrivate: true, pollMs: 50 } } });
  live = await service.createKey({ mode: 'live' });
});
afterAll(async () => {
  await service?.stop();
  await receiver.stop();
});
beforeEach(() => {
  receiver.answer = 204;
  receiver.delayMs = 0;
});

/** Registers an endpoint at `/hooks/<name>` and gives the receiver its secret. */
async function register(name: string, body: Record<string, unknown>, key = live.key) {
  const created = await service.request('POST', '/api/webhooks', { key, body: { url: receiver.url(name), ...body } });
  expect(created.status, created.text).toBe(201);
  receiver.secrets.set(name, created.body.secret);
  await verifyEndpoint((method, path) => service.request(method, path, { key }), created.body.id);
  return created.body as { id: string; secret: string };
}

const sqlOf = (mode: 'live' | 'sandbox') => service.databases[mode].sql;

describe('webhook endpoints', () => {
  it('registers, lists, reads, changes and deletes an endpoint, showing the secret once', async () => {
    const created = await register('crud', {
      events: ['signal.created', 'signal.created', 'report.completed'],
      filters: { tickers: ['brk.b', 'AAPL'], signal_types: ['insider_buy'] },
      description: 'desk alerts',
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wh_\d+$/),
      events: ['signal.created', 'report.completed'],
      filters: { tickers: ['BRK-B', 'AAPL'], signal_types: ['insider_buy'], chambers: [], members: [] },
      description: 'desk alerts',
      enabled: true,
      disabled_reason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await service.request('GET', '/api/webhooks', { key: live.key });
    expect(listed.body.count).toBe(listed.body.webhooks.length);
    expect(listed.body.webhooks.map((hook: { id: string }) => hook.id)).toContain(created.id);
    expect(listed.text).not.toContain('whsec_');
    const changed = await service.request('PATCH', `/api/webhooks/${created.id}`, {
      key: live.key,
      body: { description: 'renamed', enabled: false },
    });
    expect(changed.body).toMatchObject({ id: created.id, description: 'renamed', enabled: false });
    expect((await service.request('GET', `/api/webhooks/${created.id}`, { key: live.key })).body.description).toBe(
      'renamed',
    );
    // Another account's key finds nothing there.
    const other = await service.createKey({ mode: 'live' });
    expectError(await service.request('GET', `/api/webhooks/${created.id}`, { key: other.key }), 404, 'not_found');
    expect((await service.request('DELETE', `/api/webhooks/${created.id}`, { key: live.key })).body).toEqual({
      id: created.id,
      deleted: true,
    });
    expectError(await service.request('GET', `/api/webhooks/${created.id}`, { key: live.key }), 404, 'not_found');
  });

  it('refuses bad input with a 400 naming each field, and writes nothing', async () => {
    const before = await sqlOf('live').query(`SELECT count(*)::int AS n FROM webhook_endpoints`);
    expectError(
      await service.request('POST', '/api/webhooks', {
        key: live.key,
        body: { url: 'ftp://example.com/x', events: ['trade.made'], filters: { chambers: ['senat'] } },
      }),
      400,
      'invalid_parameter',
      ['url', 'events.0', 'filters.chambers.0'],
    );
    expectError(
      await service.request('POST', '/api/webhooks', { key: live.key, body: { events: 'signal.created' } }),
      400,
      'invalid_parameter',
      ['events'],
    );
    expectError(await service.request('POST', '/api/webhooks', { key: live.key, body: {} }), 400, 'invalid_parameter', [
      'url',
      'events',
    ]);
    expectError(
      await service.request('POST', '/api/webhooks/wh_1/replay?since=yesterday', { key: live.key }),
      400,
      'invalid_parameter',
      ['since'],
    );
    expect(await sqlOf('live').query(`SELECT count(*)::int AS n FROM webhook_endpoints`)).toEqual(before);
  });

  it('is for the Institutional plan: other plans get the documented 403, in REST and GraphQL', async () => {
    for (const plan of ['analyst', 'professional'] as const) {
      const { key } = await service.createKey({ plan, mode: 'live' });
      const refused = await service.request('POST', '/api/webhooks', {
        key,
        body: { url: receiver.url('x'), events: ['signal.created'] },
      });
      expectError(refused, 403, 'plan_required');
      expectError(await service.request('GET', '/api/webhooks', { key }), 403, 'plan_required');
      const graphql = await service.graphqlRaw('{ webhookEndpoints { id } }', {}, key);
      expect(graphql.body.errors[0].extensions.code).toBe('plan_required');
    }
    expect(await sqlOf('live').query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE url LIKE '%/x'`)).toEqual([
      { n: 0 },
    ]);
  });

  it('sends a signed ping on test, and lists the delivery with its response code and latency', async () => {
    const { id } = await register('ping', { events: ['report.completed'] });
    const queued = await service.request('POST', `/api/webhooks/${id}/test`, { key: live.key });
    expect(queued.status, queued.text).toBe(202);
    // The answer shows the delivery as it stands when written: the worker may already have begun its attempt.
    expect(queued.body.delivery).toMatchObject({ event_type: 'ping', attempts: expect.toBeOneOf([0, 1]) });
    expect(['pending', 'delivered']).toContain(queued.body.delivery.status);
    const [ping] = await eventually(() => {
      const events = receiver.of('ping');
      expect(events).toHaveLength(1);
      return events;
    });
    expect(ping).toMatchObject({ id: queued.body.delivery.event_id, type: 'ping', data: { endpoint_id: id } });
    const listed = await eventually(async () => {
      const page = await service.request('GET', `/api/webhooks/${id}/deliveries`, { key: live.key });
      expect(page.body.deliveries[0].status).toBe('delivered');
      return page.body;
    });
    expect(listed).toMatchObject({ total: 1, page: 1, pages: 1 });
    expect(listed.deliveries[0]).toMatchObject({ response_code: 204, attempts: 1, next_attempt_at: null });
    expect(listed.deliveries[0].latency_ms).toBeGreaterThanOrEqual(0);
    // A retry sends the same event again, with the same id.
    const retried = await service.request('POST', `/api/webhooks/${id}/deliveries/${listed.deliveries[0].id}/retry`, {
      key: live.key,
    });
    expect(retried.status, retried.text).toBe(202);
    const [, again] = await eventually(() => {
      const events = receiver.of('ping');
      expect(events).toHaveLength(2);
      return events;
    });
    expect(again!.id).toBe(ping!.id);
    expectError(
      await service.request('POST', `/api/webhooks/${id}/deliveries/whd_999999/retry`, { key: live.key }),
      404,
      'not_found',
    );
  });

  it('offers the same operations in GraphQL', async () => {
    const created = await service.graphql(
      `mutation ($input: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(input: $input) { secret endpoint { id events filters { tickers chambers } } }
      }`,
      {
        input: {
          url: receiver.url('graphql'),
          events: ['congressional_trade.disclosed'],
          filters: { chambers: ['House'] },
        },
      },
      live.key,
    );
    const { secret, endpoint } = created.createWebhookEndpoint;
    receiver.secrets.set('graphql', secret);
    await verifyEndpoint((method, path) => service.request(method, path, { key: live.key }), endpoint.id);
    expect(endpoint).toMatchObject({
      events: ['congressional_trade.disclosed'],
      filters: { tickers: [], chambers: ['house'] },
    });
    const tested = await service.graphql(
      `mutation ($id: String!) { testWebhookEndpoint(id: $id) { delivery { id eventType status } } }`,
      { id: endpoint.id },
      live.key,
    );
    expect(tested.testWebhookEndpoint.delivery).toMatchObject({ eventType: 'ping' });
    expect(['pending', 'delivered']).toContain(tested.testWebhookEndpoint.delivery.status);
    await eventually(() => expect(receiver.of('graphql')).toHaveLength(1));
    const read = await service.graphql(
      `query ($id: String!) { webhookDeliveries(id: $id) { nodes { status responseCode } pageInfo { total } } }`,
      { id: endpoint.id },
      live.key,
    );
    expect(read.webhookDeliveries).toEqual({
      nodes: [{ status: 'delivered', responseCode: 204 }],
      pageInfo: { total: 1 },
    });
  });
});

describe('congressional_trade.disclosed from a real import while the server runs', () => {
  const TICKER = 'BYND';
  let endpoint: string;
  let expected: { n: number } | undefined;

  beforeAll(async () => {
    // Members first, so trades carry bioguide ids and parties, as the README's import order has it.
    await runImport(service.databases.live, 'members', REAL_FILES.members, { now: SNAPSHOT_DAY });
    ({ id: endpoint } = await register('trades', {
      events: ['congressional_trade.disclosed'],
      filters: { tickers: [TICKER] },
    }));
    // Down while the file is imported and until every delivery's first attempt has failed (they go one at a
    // time to one endpoint, so some are made after the import, and before the next test's beforeEach brings
    // the receiver back).
    receiver.answer = 503;
    await runImport(service.databases.live, 'senate-trades', [REAL_FILES.senate], { now: SNAPSHOT_DAY });
    [expected] = await sqlOf('live').query<{ n: number }>(
      `SELECT count(DISTINCT coalesce(identity_key, id::text))::int AS n FROM congressional_trades WHERE ticker = $1`,
      [TICKER],
    );
    await eventually(async () => {
      const [failed] = await sqlOf('live').query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE attempts >= 1 AND status = 'pending'`,
      );
      // Each attempted and none delivered (a loaded machine may time an attempt out rather than read its 503).
      expect(failed!.n).toBeGreaterThanOrEqual(expected!.n);
    }, 60_000);
  }, 180_000);

  it('delivers one verified event per new trade of the filtered ticker once the receiver is back, none twice', async () => {
    expect(expected!.n).toBeGreaterThan(1);
    receiver.answer = 204;
    // The receiver is back. A delivery that failed twice during a slow import waits 5 minutes for its third
    // attempt: that wait (platform/webhooks/backoff.ts, tested on its own) is made to have passed. On every poll,
    // because an attempt in flight when the receiver came back may still record its 503, and with it a 5-minute wait.
    const events = await eventually(async () => {
      await sqlOf('live').query(
        `UPDATE webhook_deliveries SET next_attempt_at = now()
          WHERE status = 'pending' AND next_attempt_at > now() AND (locked_until IS NULL OR locked_until <= now())`,
      );
      const delivered = receiver.of('trades');
      expect(delivered).toHaveLength(expected!.n);
      return delivered;
    }, 30_000);
    expect(new Set(events.map((event) => event.id)).size).toBe(expected!.n);
    expect(receiver.unverified).toEqual([]);
    for (const event of events) {
      expect(event.type).toBe('congressional_trade.disclosed');
      expect(event.data.ticker).toBe(TICKER);
    }
    // The event's data is the trade as the API lists it.
    const listed = await service.request('GET', `/api/congressional-trades?ticker=${TICKER}&days=3650&limit=200`, {
      key: live.key,
    });
    expect(listed.status, listed.text).toBe(200);
    const byId = new Map(listed.body.trades.map((trade: { id: string }) => [trade.id, trade]));
    const shown = events.filter((event) => byId.has(event.data.id));
    expect(shown.length).toBeGreaterThan(0);
    for (const event of shown) expect(byId.get(event.data.id)).toMatchObject(event.data);
    // Importing the same file again is no news: nothing new is sent.
    await runImport(service.databases.live, 'senate-trades', [REAL_FILES.senate], { now: SNAPSHOT_DAY });
    // The outbox is written with the rows: no delivery queued and none left to send means none can still arrive.
    const page = await service.request('GET', `/api/webhooks/${endpoint}/deliveries?limit=1`, { key: live.key });
    expect(page.body.total).toBe(expected!.n);
    const pending = await sqlOf('live').query(
      `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.url = $1 AND d.status = 'pending'`,
      [receiver.url('trades')],
    );
    expect(pending).toEqual([]);
    expect(receiver.of('trades')).toHaveLength(expected!.n);
    // The endpoint registered in GraphQL listens for House trades only: of the Senate file it got nothing.
    expect(receiver.of('graphql').map((event) => event.type)).toEqual(['ping']);
  }, 150_000);

  it('replays what the endpoint receives since a moment, with the same event ids', async () => {
    const before = receiver.of('trades').map((event) => event.id);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const replay = await service.request('POST', `/api/webhooks/${endpoint}/replay?since=${since}`, { key: live.key });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toEqual({ queued: before.length, since });
    const again = await eventually(() => {
      const events = receiver.of('trades').slice(before.length);
      expect(events).toHaveLength(before.length);
      return events;
    });
    expect(new Set(again.map((event) => event.id))).toEqual(new Set(before));
  });

  it('writes no event when the write rolls back', async () => {
    const [before] = await sqlOf('live').query(`SELECT count(*)::int AS n FROM webhook_events`);
    const spec = {
      table: 'signals',
      columns: { ticker: 'text', source_key: 'text', created_at: 'timestamp(3)' },
      key: ['source_key'],
      insertOnly: { id: 'gen_random_uuid()' },
      events: `SELECT 'signal.created' AS type, to_jsonb(r.source_key) AS data, '{}'::jsonb AS attributes FROM written r`,
    };
    // company_name is NOT NULL: the upsert fails, and the events written beside it with it.
    await expect(
      upsertRows(sqlOf('live'), spec, [{ ticker: 'AAPL', source_key: 'rollback-test', created_at: new Date() }]),
    ).rejects.toThrow();
    expect(await sqlOf('live').query(`SELECT count(*)::int AS n FROM webhook_events`)).toEqual([before]);
  });
});

describe('secrets and destinations', () => {
  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const { id, secret: old } = await register('rotate', { events: ['report.completed'] });
    const rotated = await service.request('POST', `/api/webhooks/${id}/rotate`, { key: live.key });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).not.toBe(old);
    const expires = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3_600_000);
    expect(expires).toBeLessThanOrEqual(24 * 3_600_000);
    // A receiver still on the old secret verifies; one on the new verifies too.
    await service.request('POST', `/api/webhooks/${id}/test`, { key: live.key });
    await eventually(() => expect(receiver.of('rotate')).toHaveLength(1));
    receiver.secrets.set('rotate', rotated.body.secret);
    await service.request('POST', `/api/webhooks/${id}/test`, { key: live.key });
    await eventually(() => expect(receiver.of('rotate')).toHaveLength(2));
    expect(receiver.of('rotate')[1]!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });

  it('keeps sandbox endpoints and events apart from live ones', async () => {
    const sandbox = await service.createKey({ mode: 'sandbox' });
    const { id } = await register('sandbox', { events: ['report.completed'] }, sandbox.key);
    const [row] = await sqlOf('sandbox').query<{ account_id: string }>(
      `SELECT account_id FROM webhook_endpoints WHERE id = $1`,
      [Number(id.slice(3))],
    );
    expect(row?.account_id).toBe(sandbox.accountId);
    expectError(await service.request('GET', `/api/webhooks/${id}`, { key: live.key }), 404, 'not_found');
  });
});
