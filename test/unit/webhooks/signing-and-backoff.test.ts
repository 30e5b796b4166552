import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RETRY_WAITS_MS,
  RETRY_WINDOW_MS,
  nextAttemptAt,
  retryAfterMs,
} from '../../../subgraphs/platform/webhooks/backoff.ts';
import { newWebhookSecret, signDelivery } from '../../../subgraphs/platform/webhooks/signing.ts';

describe('signed deliveries, verified by a real receiver with the standardwebhooks package', () => {
  const current = newWebhookSecret();
  const previous = newWebhookSecret();
  const received: { verified: unknown; error?: string }[] = [];
  let url: string;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      // The receiver holds one secret: the new one after a rotation, or a stranger's.
      const secret = request.headers['x-receiver-secret'] as string;
      try {
        received.push({ verified: new Webhook(secret).verify(body, request.headers as Record<string, string>) });
        response.writeHead(204).end();
      } catch (error) {
        received.push({ verified: undefined, error: (error as Error).message });
        response.writeHead(400).end();
      }
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const deliver = async (secrets: string[], receiverSecret: string, body: string, at = new Date()) => {
    const headers = signDelivery(secrets, 'msg_2f1c', body, at);
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-receiver-secret': receiverSecret },
      body,
    });
    return { status: response.status, received: received.at(-1)! };
  };

  it('uses the whsec_ form with 32 random bytes', () => {
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(current.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(current);
  });

  it('is verified by a receiver holding the secret, with the event id as webhook-id', async () => {
    const body = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), data: { endpoint_id: 'we_1' } });
    const result = await deliver([current], current, body);
    expect(result.status).toBe(204);
    expect(result.received.verified).toEqual(JSON.parse(body));
  });

  it('carries both signatures during a rotation: either secret verifies', async () => {
    const body = JSON.stringify({ type: 'ping', data: {} });
    expect((await deliver([current, previous], current, body)).status).toBe(204);
    expect((await deliver([current, previous], previous, body)).status).toBe(204);
  });

  it('fails verification for another secret, a changed body and an old timestamp', async () => {
    const body = JSON.stringify({ type: 'ping', data: {} });
    expect((await deliver([current], newWebhookSecret(), body)).received.error).toBe('No matching signature found');
    const headers = signDelivery([current], 'msg_1', body, new Date());
    expect(() => new Webhook(current).verify(`${body} `, headers as unknown as Record<string, string>)).toThrow(
      'No matching signature found',
    );
    const old = await deliver([current], current, body, new Date(Date.now() - 10 * 60_000));
    expect(old.received.error).toBe('Message timestamp too old');
  });
});

describe('the retry schedule', () => {
  const first = new Date('2026-11-24T00:00:00Z');
  const at = (ms: number) => new Date(first.getTime() + ms);
  const middle = () => 0.5;

  it('waits longer after each failure, within ±20 % jitter', () => {
    expect(nextAttemptAt(1, first, first, { random: middle })).toEqual(at(5000));
    expect(nextAttemptAt(1, first, first, { random: () => 0 })).toEqual(at(4000));
    expect(nextAttemptAt(1, first, first, { random: () => 1 })).toEqual(at(6000));
    expect(nextAttemptAt(3, first, at(60_000), { random: middle })).toEqual(at(60_000 + 1_800_000));
    // Past the schedule the last wait repeats.
    expect(nextAttemptAt(9, first, at(3600_000), { random: middle })).toEqual(at(3600_000 + RETRY_WAITS_MS.at(-1)!));
  });

  it('plans nothing later than 24 hours after the first attempt, and stops there', () => {
    const late = at(RETRY_WINDOW_MS - 60_000);
    expect(nextAttemptAt(6, first, late, { random: middle })).toEqual(at(RETRY_WINDOW_MS));
    expect(nextAttemptAt(7, first, at(RETRY_WINDOW_MS), { random: middle })).toBeUndefined();
  });

  it('honours a longer Retry-After, in seconds or as a date', () => {
    expect(retryAfterMs('120', first)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 00:02:00 GMT', first)).toBe(120_000);
    expect(retryAfterMs('soon', first)).toBeUndefined();
    expect(retryAfterMs(null, first)).toBeUndefined();
    expect(nextAttemptAt(1, first, first, { random: middle, retryAfterMs: 120_000 })).toEqual(at(120_000));
    // A shorter one does not bring the attempt forward.
    expect(nextAttemptAt(2, first, first, { random: middle, retryAfterMs: 1000 })).toEqual(at(300_000));
  });
});
