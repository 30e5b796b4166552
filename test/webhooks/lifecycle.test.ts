import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyAccountState } from '../../gateway/auth/account-state.ts';
import { createApiKey } from '../../gateway/auth/api-keys.ts';
import { adminTool } from '../../gateway/commands/admin-tool.ts';
import type { Mode } from '../../subgraphs/platform/database.ts';
import { publishEvents } from '../../subgraphs/platform/webhooks/outbox.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { Receiver, eventually, verifyEndpoint } from './receiver.ts';

/**
 * What an endpoint may be sent as its account and its URL change (docs/webhooks.md "Verification", "Plan
 * changes"): a downgrade suspends it in both databases and cancels what was pending, an upgrade resumes it as it
 * was; an unverified URL gets nothing but its verification ping, and a replay is capped and one at a time.
 */
let service: TestService;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  // The report worker sleeps for the whole file: jobs written here stay queued until a plan change decides.
  service = await startTestService({
    server: { webhooks: { allowPrivate: true, pollMs: 50 }, reportWorker: { pollMs: 3_600_000 } },
  });
});
afterAll(async () => {
  await service?.stop();
  await receiver.stop();
});
beforeEach(() => {
  receiver.answer = 204;
});

/** `admin <argv>` as the running server executes it (gateway/commands/admin-tool.ts over the admin socket). */
async function admin(...argv: string[]) {
  const printed: string[] = [];
  const output = { out: (text: string) => printed.push(text), err: (text: string) => printed.push(text) };
  const prepared = adminTool.prepare(argv, output);
  if (typeof prepared === 'number') throw new Error(`admin ${argv.join(' ')} ran nothing`);
  const code = await prepared.run(service.databases[prepared.mode], output, service.databases);
  expect(code, printed.join('')).toBe(0);
}

async function register(name: string, key: string, verify = true) {
  const created = await service.request('POST', '/api/webhooks', {
    key,
    body: { url: receiver.url(name), events: ['signal.created'], description: `${name} desk` },
  });
  expect(created.status, created.text).toBe(201);
  if (verify) {
    receiver.secrets.set(name, created.body.secret);
    await verifyEndpoint((method, path) => service.request(method, path, { key }), created.body.id);
  }
  return created.body as { id: string; secret: string };
}

const signals = (count: number, tag: string) =>
  Array.from({ length: count }, (_, index) => ({
    type: 'signal.created' as const,
    data: { id: `${tag}-${index}` },
    attributes: { ticker: 'AAPL' },
  }));

const numericId = (id: string) => Number(id.split('_')[1]);

async function deliveriesOf(mode: Mode, endpointId: string) {
  return service.databases[mode].sql.query<{
    status: string;
    event_id: string;
    last_error: string | null;
    attempted: boolean;
  }>(
    `SELECT status, event_id, last_error, attempts > 0 AND locked_until IS NULL AS attempted
       FROM webhook_deliveries WHERE endpoint_id = $1 AND purpose <> 'verification' ORDER BY id`,
    [numericId(endpointId)],
  );
}

describe('plan changes', () => {
  it('suspends the endpoints of a downgraded account in both databases, cancelling what was pending, and an upgrade resumes them', async () => {
    const { key: liveKey, accountId } = await service.createKey({ plan: 'institutional', mode: 'live' });
    const { key: sandboxKey } = await createApiKey(service.databases.live, accountId, 'sandbox');
    const endpoints = {
      live: await register('plan-live', liveKey),
      sandbox: await register('plan-sandbox', sandboxKey),
    };

    // The receivers are down: each database's event, attempted once, waits for its next attempt (5 s on).
    receiver.answer = 503;
    for (const mode of ['live', 'sandbox'] as const)
      await publishEvents(service.databases[mode].sql, signals(1, 'before'));
    for (const mode of ['live', 'sandbox'] as const) {
      await eventually(async () =>
        expect(await deliveriesOf(mode, endpoints[mode].id)).toMatchObject([{ status: 'pending', attempted: true }]),
      );
    }

    await admin('set-plan', '--account', accountId, '--plan', 'analyst');
    receiver.answer = 204;
    for (const mode of ['live', 'sandbox'] as const) {
      // Cancelled, not sent later: and the events of the import after the downgrade queue nothing at all.
      const [published] = await publishEvents(service.databases[mode].sql, signals(1, 'after'));
      const deliveries = await deliveriesOf(mode, endpoints[mode].id);
      expect(
        deliveries.map((delivery) => delivery.event_id),
        mode,
      ).not.toContain(published);
      expect(
        deliveries.map((delivery) => delivery.status),
        mode,
      ).toEqual(['cancelled']);
      expect(deliveries[0]!.last_error).toContain('suspended (plan_excludes_webhooks)');
      const [stored] = await service.databases[mode].sql.query<{ suspended_reason: string | null; enabled: boolean }>(
        `SELECT suspended_reason, enabled FROM webhook_endpoints WHERE id = $1`,
        [numericId(endpoints[mode].id)],
      );
      expect(stored, mode).toEqual({ suspended_reason: 'plan_excludes_webhooks', enabled: true });
    }
    expect((await service.request('GET', '/api/webhooks', { key: liveKey })).status).toBe(403);

    await admin('set-plan', '--account', accountId, '--plan', 'institutional');
    for (const mode of ['live', 'sandbox'] as const) {
      const key = mode === 'live' ? liveKey : sandboxKey;
      const shown = await service.request('GET', `/api/webhooks/${endpoints[mode].id}`, { key });
      expect(shown.body).toMatchObject({
        url: receiver.url(`plan-${mode}`),
        events: ['signal.created'],
        description: `plan-${mode} desk`,
        enabled: true,
        verification: 'verified',
        suspended_reason: null,
      });
      const [published] = await publishEvents(service.databases[mode].sql, signals(1, 'resumed'));
      await eventually(() => expect(receiver.of(`plan-${mode}`).map((event) => event.id)).toContain(published));
    }
    expect(receiver.of('plan-live').map((event) => event.data.id)).toEqual(['resumed-0']);
  });

  it('fails the queued and running report jobs of an account whose plan no longer has reports, and only those', async () => {
    const { accountId } = await service.createKey({ plan: 'professional', mode: 'sandbox' });
    const { accountId: otherAccount } = await service.createKey({ plan: 'professional', mode: 'sandbox' });
    const sandbox = service.databases.sandbox.prisma;
    const job = (account: string, status: string) =>
      sandbox.reportJob.create({
        data: {
          accountId: account,
          vertical: 'legal',
          recordType: 'attorneys',
          filters: {},
          format: 'csv',
          fields: [],
          status,
        },
      });
    const queued = await job(accountId, 'queued');
    const running = await job(accountId, 'processing');
    const done = await job(accountId, 'completed');
    const others = await job(otherAccount, 'queued');

    await admin('set-plan', '--account', accountId, '--plan', 'analyst');

    const byId = async (id: number) => sandbox.reportJob.findUniqueOrThrow({ where: { id } });
    for (const cancelled of [queued, running]) {
      expect(await byId(cancelled.id)).toMatchObject({
        status: 'failed',
        error: "Cancelled: the account's plan (analyst) no longer includes reports (professional and above).",
      });
    }
    expect((await byId(done.id)).status).toBe('completed');
    expect((await byId(others.id)).status).toBe('queued');
  });

  it('suspends the endpoints of a disabled account whatever its plan', async () => {
    const { key, accountId } = await service.createKey({ plan: 'institutional', mode: 'live' });
    const endpoint = await register('disabled', key);
    const applied = await applyAccountState(service.databases, accountId, { plan: 'institutional', disabled: true });
    expect(applied.live).toMatchObject({ suspended: 1, resumed: 0 });
    expect(applied.sandbox).toMatchObject({ suspended: 0, resumed: 0 });
    const shown = await service.request('GET', `/api/webhooks/${endpoint.id}`, { key });
    expect(shown.body.suspended_reason).toBe('account_disabled');
    const replay = await service.request('POST', `/api/webhooks/${endpoint.id}/replay?since=2000-01-01T00:00:00Z`, {
      key,
    });
    expect(replay.status).toBe(409);
    expect(replay.body.message).toContain('suspended (account_disabled)');
  });
});

describe('no reflector', () => {
  it('sends an unverified endpoint nothing but its verification, refusing tests, retries and replays with 409', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'live' });
    // The receiver does not hold the secret yet: the registration's ping is answered 503, as by a URL that is not ours.
    const endpoint = await register('reflect', key, false);
    await publishEvents(service.databases.live.sql, signals(3, 'unverified'));
    const shown = await service.request('GET', `/api/webhooks/${endpoint.id}`, { key });
    expect(shown.body).toMatchObject({ verification: 'unverified', verified_at: null });
    expect(await deliveriesOf('live', endpoint.id)).toEqual([]);

    for (const [path, route] of [
      [`/api/webhooks/${endpoint.id}/replay?since=2000-01-01T00:00:00Z`, 'replay'],
      [`/api/webhooks/${endpoint.id}/test`, 'test'],
      [`/api/webhooks/${endpoint.id}/deliveries/whd_1/retry`, 'retry'],
    ]) {
      const refused = await service.request('POST', path!, { key });
      expect(refused.status, route).toBe(409);
      expect(refused.body, route).toMatchObject({ error: 'conflict' });
      expect(refused.body.message, route).toContain('has not verified its URL');
    }
    expect(await deliveriesOf('live', endpoint.id)).toEqual([]);

    receiver.secrets.set('reflect', endpoint.secret);
    await verifyEndpoint((method, path) => service.request(method, path, { key }), endpoint.id);
    const verification = receiver.verifications.find((event) => event.endpoint === 'reflect')!;
    expect(verification.data).toEqual({ endpoint_id: endpoint.id, url: receiver.url('reflect') });

    // A new URL is unverified again until it answers its own ping.
    const moved = await service.request('PATCH', `/api/webhooks/${endpoint.id}`, {
      key,
      body: { url: receiver.url('reflect-moved') },
    });
    expect(moved.body).toMatchObject({ url: receiver.url('reflect-moved'), verification: 'unverified' });
    expect((await service.request('POST', `/api/webhooks/${endpoint.id}/test`, { key })).status).toBe(409);
  });

  it('replays at most 1,000 events a call, one replay at a time', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'live' });
    const endpoint = await register('replay', key, false);
    // Written while the endpoint is unverified, so only a replay queues them.
    await publishEvents(service.databases.live.sql, signals(1_005, 'replayed'));
    receiver.secrets.set('replay', endpoint.secret);
    await verifyEndpoint((method, path) => service.request(method, path, { key }), endpoint.id);
    receiver.answer = 503;

    const replay = () =>
      service.request('POST', `/api/webhooks/${endpoint.id}/replay?since=2000-01-01T00:00:00Z`, { key });
    const first = await replay();
    expect(first.status, first.text).toBe(202);
    expect(first.body.queued).toBe(1_000);
    const second = await replay();
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('is still running');
    expect(await deliveriesOf('live', endpoint.id)).toHaveLength(1_000);
  });
});
