import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptDelivery } from '../../subgraphs/platform/webhooks/deliveries.ts';
import type { ClaimedDelivery } from '../../subgraphs/platform/webhooks/deliveries.ts';
import { newWebhookSecret } from '../../subgraphs/platform/webhooks/signing.ts';
import { eventually, Receiver } from './receiver.ts';

/**
 * Hostile receivers: a real loopback HTTP server (WEBHOOK_ALLOW_PRIVATE only because it is loopback). Assertions are on which deliveries finished and in what
 * order, never on how long anything took.
 */
describe('webhook delivery isolation', () => {
  let receiver: Receiver;
  const body = (n: string) => JSON.stringify({ type: 'ping', timestamp: '2026-12-02T00:00:00Z', data: { n } });

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop(); // hangs up on hostile answers
  });

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
});
