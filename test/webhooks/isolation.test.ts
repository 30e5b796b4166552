import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../subgraphs/platform/database.ts';
import { attemptDelivery } from '../../subgraphs/platform/webhooks/deliveries.ts';
import type { ClaimedDelivery } from '../../subgraphs/platform/webhooks/deliveries.ts';
import { newWebhookSecret } from '../../subgraphs/platform/webhooks/signing.ts';
import { startWebhookWorker } from '../../subgraphs/platform/webhooks/worker.ts';
import type { BackgroundWorker } from '../../subgraphs/platform/process/while-listening.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { eventually, Receiver } from './receiver.ts';

/**
 * One hostile receiver against everyone else's deliveries, on a real database and a real loopback receiver
 * (WEBHOOK_ALLOW_PRIVATE only because it is loopback). Assertions are on which deliveries finished and in what
 * order, never on how long anything took.
 */
describe('webhook delivery isolation', () => {
  let store: TestDatabases;
  let db: Database;
  let receiver: Receiver;
  let worker: BackgroundWorker | undefined;
  const sql = <Row = Record<string, any>>(text: string, params: unknown[] = []) => db.sql.query<Row>(text, params);
  const body = (n: string) => JSON.stringify({ type: 'ping', timestamp: '2026-12-02T00:00:00Z', data: { n } });

  beforeAll(async () => {
    store = await createTestDatabases();
    db = store.databases.live;
  });
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop(); // hangs up on hostile answers, so the worker's attempts end and it can stop
    await worker?.stop();
    worker = undefined;
    await sql(`DELETE FROM webhook_endpoints`);
    await sql(`DELETE FROM webhook_events`);
  });
  afterAll(() => store?.drop());

  /** A delivery as a claim hands it over, to a hostile endpoint of the receiver. */
  function hostileDelivery(name: string, kind: 'drip' | 'flood'): ClaimedDelivery {
    const secret = newWebhookSecret();
    receiver.secrets.set(name, secret);
    receiver.hostile.set(name, kind);
    const eventId = `msg_${name}`;
    const [id, endpointId, attempt] = [1, 1, 1];
    return {
      id,
      attempt,
      eventId,
      endpointId,
      url: receiver.url(name),
      body: body(eventId),
      secrets: [secret],
      firstAttemptAt: new Date(),
    };
  }

  /** An endpoint of its own account, at the receiver's `/hooks/<name>`, its URL verified. */
  async function endpoint(name: string): Promise<number> {
    const secret = newWebhookSecret();
    receiver.secrets.set(name, secret);
    const [row] = await sql<{ id: number }>(
      `INSERT INTO webhook_endpoints (account_id, url, verified_url, events, secret, updated_at)
       VALUES ($1, $2, $2, '{ping}', $3, now()) RETURNING id`,
      [`acct_${name}`, receiver.url(name), secret],
    );
    return row!.id;
  }

  async function queue(eventId: string, endpointId: number) {
    await sql(`INSERT INTO webhook_events (id, type, body) VALUES ($1, 'ping', $2)`, [eventId, body(eventId)]);
    await sql(`INSERT INTO webhook_deliveries (event_id, endpoint_id) VALUES ($1, $2)`, [eventId, endpointId]);
  }

  it('ends an attempt at its deadline however the receiver spaces its bytes', async () => {
    const delivery = hostileDelivery('drip', 'drip');
    // A byte every 100 ms never leaves the connection idle for 300 ms: only a deadline on the whole attempt ends it.
    const result = await attemptDelivery(delivery, { allowPrivate: true, timeoutMs: 300 });
    expect(result).toMatchObject({ delivered: false, statusCode: 200, error: 'no complete answer within 300 ms' });
    await eventually(() => expect(receiver.hostileOpen).toBe(0)); // the sender hung up
  });

  it('reads at most 64 KB of an answer that never ends, and judges it by its status', async () => {
    const delivery = hostileDelivery('flood', 'flood');
    // The deadline is far off: the attempt can only have ended because the read stopped at the cap.
    expect(await attemptDelivery(delivery, { allowPrivate: true, timeoutMs: 600_000 })).toMatchObject({
      delivered: true,
      statusCode: 200,
    });
  });

  it('keeps delivering to other endpoints while one receiver drips, and sends that one one attempt at a time', async () => {
    receiver.hostile.set('slow', 'drip');
    const slow = await endpoint('slow');
    const other = await endpoint('other');
    const third = await endpoint('third');
    // An attempt deadline longer than the test: the others can only arrive by not waiting for the slow one.
    worker = startWebhookWorker({ databases: store.databases, allowPrivate: true, pollMs: 50, timeoutMs: 600_000 });
    await queue('msg_slow_1', slow);
    await queue('msg_slow_2', slow);
    await eventually(() => expect(receiver.hostileOpen).toBe(1));
    await queue('msg_other', other);
    await queue('msg_third', third);
    await eventually(async () => {
      const delivered = await sql<{ event_id: string }>(
        `SELECT event_id FROM webhook_deliveries WHERE status = 'delivered' ORDER BY event_id`,
      );
      expect(delivered.map((row) => row.event_id)).toEqual(['msg_other', 'msg_third']);
    });
    // The slow endpoint's first attempt is still dripping, and its second was not sent beside it.
    expect(receiver.hostileOpen).toBe(1);
    expect(receiver.hostileArrivals).toEqual(['msg_slow_1']);
    const pending = await sql(`SELECT event_id, attempts FROM webhook_deliveries WHERE status = 'pending' ORDER BY 1`);
    expect(pending).toEqual([
      { event_id: 'msg_slow_1', attempts: 1 },
      { event_id: 'msg_slow_2', attempts: 0 }, // waiting its turn, not lost
    ]);
    expect(receiver.of('other')).toHaveLength(1);
    expect(receiver.of('third')).toHaveLength(1);
  });
});
