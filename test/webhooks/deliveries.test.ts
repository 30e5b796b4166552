import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../subgraphs/platform/database.ts';
import { attemptDelivery, claimDeliveries, recordAttempt } from '../../subgraphs/platform/webhooks/deliveries.ts';
import { newWebhookSecret } from '../../subgraphs/platform/webhooks/signing.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

/** The delivery queue on a real database, against a real receiver that verifies every signature. */
describe('webhook deliveries', () => {
  let store: TestDatabases;
  let db: Database;
  const secret = newWebhookSecret();
  let answer: { status: number; headers?: Record<string, string> } = { status: 204 };
  const received: { id: string; body: unknown }[] = [];
  let url: string;
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const verified = new Webhook(secret).verify(body, request.headers as Record<string, string>);
      received.push({ id: request.headers['webhook-id'] as string, body: verified });
      response.writeHead(answer.status, answer.headers).end();
    });
  });
  const sql = <Row = Record<string, any>>(text: string, params: unknown[] = []) => db.sql.query<Row>(text, params);

  beforeAll(async () => {
    store = await createTestDatabases();
    db = store.databases.live;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await store?.drop();
  });
  beforeEach(async () => {
    answer = { status: 204 };
    received.length = 0;
    await sql(`DELETE FROM webhook_endpoints`);
    await sql(`DELETE FROM webhook_events`);
  });

  /** One endpoint (its URL verified) and one event queued for it, as the outbox writes them. */
  async function queue(eventId: string, endpointUrl = url) {
    const [endpoint] = await sql<{ id: number }>(
      `INSERT INTO webhook_endpoints (account_id, url, verified_url, events, secret, updated_at)
       VALUES ('acct', $1, $1, '{ping}', $2, now()) RETURNING id`,
      [endpointUrl, secret],
    );
    await queueFor(endpoint!.id, eventId);
    return endpoint!.id;
  }

  /** Another event queued for an endpoint that exists. */
  async function queueFor(endpointId: number, eventId: string) {
    const body = JSON.stringify({ type: 'ping', timestamp: '2026-11-24T00:00:00Z', data: { n: eventId } });
    await sql(`INSERT INTO webhook_events (id, type, body) VALUES ($1, 'ping', $2)`, [eventId, body]);
    await sql(`INSERT INTO webhook_deliveries (event_id, endpoint_id) VALUES ($1, $2)`, [eventId, endpointId]);
  }

  const deliverDue = async (allowPrivate = true) => {
    const claimed = await claimDeliveries(db, 10, 30_000);
    for (const delivery of claimed)
      await recordAttempt(db.sql, delivery, await attemptDelivery(delivery, { allowPrivate }));
    return claimed;
  };
  const delivery = async () =>
    (
      await sql(
        `SELECT status, attempts, last_status_code, last_error, next_attempt_at, last_attempt_at FROM webhook_deliveries`,
      )
    )[0]!;

  it('delivers a signed event, once, with its event id as webhook-id', async () => {
    await queue('msg_one');
    expect(await deliverDue()).toHaveLength(1);
    expect(received).toEqual([{ id: 'msg_one', body: expect.objectContaining({ type: 'ping' }) }]);
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204 });
    expect(await deliverDue()).toEqual([]);
  });

  it('retries a receiver that is down, honouring Retry-After, and delivers the same event id once it is up', async () => {
    await queue('msg_retry');
    answer = { status: 503, headers: { 'retry-after': '120' } };
    await deliverDue();
    const failed = await delivery();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503, last_error: 'HTTP 503' });
    // Two minutes after the attempt, as Retry-After asked (measured from the attempt, so a stalled test process
    // on a loaded machine cannot eat into it).
    expect(
      new Date(failed.next_attempt_at).getTime() - new Date(failed.last_attempt_at).getTime(),
    ).toBeGreaterThanOrEqual(119_000);
    expect(await deliverDue()).toEqual([]); // not due yet
    answer = { status: 200 };
    await sql(`UPDATE webhook_deliveries SET next_attempt_at = now()`);
    await deliverDue();
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(received.map((entry) => entry.id)).toEqual(['msg_retry', 'msg_retry']);
    const [endpoint] = await sql(`SELECT failing_since FROM webhook_endpoints`);
    expect(endpoint).toEqual({ failing_since: null });
  });

  it('never hands one delivery to two workers, and gives a killed worker’s delivery back when its lease ends', async () => {
    await queue('msg_lease');
    const [first, second] = await Promise.all([claimDeliveries(db, 10, 200), claimDeliveries(db, 10, 200)]);
    expect([...first!, ...second!]).toHaveLength(1);
    const stale = [...first!, ...second!][0]!;
    // The worker holding it dies without recording anything; after the lease another claims it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [again] = await claimDeliveries(db, 10, 30_000);
    expect(again).toMatchObject({ eventId: 'msg_lease', attempt: 2 });
    expect(await recordAttempt(db.sql, stale, { delivered: true, latencyMs: 1, statusCode: 200 })).toBe(false);
    expect(await recordAttempt(db.sql, again!, await attemptDelivery(again!, { allowPrivate: true }))).toBe(true);
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('claims one delivery per endpoint at a time, and none past the endpoint’s rate, losing none', async () => {
    const busy = await queue('msg_busy_1');
    await queueFor(busy, 'msg_busy_2');
    await queueFor(busy, 'msg_busy_3');
    await queue('msg_quiet');
    const ids = (claimed: { eventId: string }[]) => claimed.map((delivery) => delivery.eventId).sort();
    const first = await claimDeliveries(db, 10, 30_000);
    expect(ids(first)).toEqual(['msg_busy_1', 'msg_quiet']); // the oldest of each endpoint
    expect(await claimDeliveries(db, 10, 30_000)).toEqual([]); // both endpoints have an attempt in flight
    for (const delivery of first)
      await recordAttempt(db.sql, delivery, { delivered: true, latencyMs: 1, statusCode: 200 });

    // Two attempts in the last second (dated ahead, so however slowly this test runs they are recent): at a rate
    // of 2 a second the endpoint waits; its next delivery comes once they are over a second old.
    await sql(
      `UPDATE webhook_deliveries SET last_attempt_at = now() + interval '1 minute' WHERE event_id IN ('msg_busy_1', 'msg_quiet')`,
    );
    await sql(`INSERT INTO webhook_events (id, type, body) VALUES ('msg_earlier', 'ping', '{}')`);
    await sql(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, last_attempt_at)
       VALUES ('msg_earlier', $1, 'delivered', now() + interval '1 minute')`,
      [busy],
    );
    expect(await claimDeliveries(db, 10, 30_000, 2)).toEqual([]);
    await sql(
      `UPDATE webhook_deliveries SET last_attempt_at = now() - interval '2 seconds' WHERE last_attempt_at IS NOT NULL`,
    );
    const next = await claimDeliveries(db, 10, 30_000, 2);
    expect(ids(next)).toEqual(['msg_busy_2']);
    const [waiting] = await sql(`SELECT status, attempts FROM webhook_deliveries WHERE event_id = 'msg_busy_3'`);
    expect(waiting).toEqual({ status: 'pending', attempts: 0 });
  });

  it('claims an unverified endpoint’s verification ping past the events waiting behind it', async () => {
    const endpointId = await queue('msg_waiting');
    await sql(`UPDATE webhook_endpoints SET url = url || '?moved' WHERE id = $1`, [endpointId]); // unverified now
    await sql(`INSERT INTO webhook_events (id, type, body) VALUES ('msg_verify', 'webhook.verification', '{}')`);
    await sql(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, purpose) VALUES ('msg_verify', $1, 'verification')`,
      [endpointId],
    );
    expect((await claimDeliveries(db, 10, 30_000)).map((delivery) => delivery.eventId)).toEqual(['msg_verify']);
  });

  it('refuses a private destination unless allowed, before sending anything', async () => {
    await queue('msg_private', 'https://127.0.0.1:8443/hooks');
    await deliverDue(false);
    expect(received).toEqual([]);
    expect(await delivery()).toMatchObject({
      status: 'pending',
      last_error: 'refused: the host resolves to a loopback address',
    });
  });

  it('sends no body over 256 KB', async () => {
    await queue('msg_large');
    await sql(`UPDATE webhook_events SET body = $1`, [JSON.stringify({ type: 'ping', data: 'x'.repeat(256 * 1024) })]);
    await deliverDue();
    expect(received).toEqual([]);
    expect(await delivery()).toMatchObject({ status: 'pending', last_error: 'refused: the event is over 256 KB' });
  });

  it('disables an endpoint whose deliveries have failed for three days, and says why', async () => {
    const endpointId = await queue('msg_dead');
    await sql(`UPDATE webhook_endpoints SET failing_since = now() - interval '4 days' WHERE id = $1`, [endpointId]);
    answer = { status: 500 };
    await deliverDue();
    const [endpoint] = await sql(`SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1`, [endpointId]);
    expect(endpoint).toEqual({ enabled: false, disabled_reason: 'every delivery failed for 3 days' });
    await sql(`UPDATE webhook_deliveries SET next_attempt_at = now()`);
    expect(await deliverDue()).toEqual([]); // a disabled endpoint's deliveries wait
  });
});
