import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import type { Limits } from '../../gateway/limits/limits.ts';
import { takeRequest } from '../../gateway/limits/rate-limit.ts';
import { MemoryCounterStore, RedisCounterStore } from '../../gateway/limits/store.ts';
import type { CounterStore } from '../../gateway/limits/store.ts';
import { createServer } from '../../gateway/server.ts';
import type { Viewer } from '../../subgraphs/platform/context.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';

const MINUTE = 60_000;
/** A minute boundary, some time in the future of the test clock. */
const BOUNDARY = Math.ceil(Date.now() / MINUTE) * MINUTE + 10 * MINUTE;

/** The attack: 2 × limit calls in 1.6 s, half just before a minute boundary and half just after it. */
function burstAcrossBoundary(limit: number): number[] {
  const before = Array.from({ length: limit }, (_, index) => BOUNDARY - 800 + Math.floor((index * 800) / limit));
  const after = Array.from({ length: limit }, (_, index) => BOUNDARY + Math.floor((index * 800) / limit));
  return [...before, ...after];
}

/** The largest number of admitted calls within any 60 s span. */
function busiestMinute(admitted: number[]): number {
  let most = 0;
  for (const start of admitted)
    most = Math.max(most, admitted.filter((time) => time >= start && time < start + MINUTE).length);
  return most;
}

describe('scheme B counts any 60 seconds, not clock minutes', () => {
  let redis: TestRedis;
  let store: TestDatabases;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    store = await createTestDatabases();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await store?.drop();
    await redis?.stop();
  });

  const viewer: Viewer = { accountId: 'sliding-window-account', plan: 'analyst', mode: 'live' };

  for (const kind of ['memory', 'redis'] as const) {
    it(`admits at most the limit in any 60 s span across a minute boundary (${kind} store)`, async () => {
      const counters: CounterStore = kind === 'memory' ? new MemoryCounterStore() : new RedisCounterStore(redis.url);
      closers.push(() => counters.close());
      const admitted: number[] = [];
      const refusals: { now: number; retryAfter: number; reset: number }[] = [];
      for (const now of burstAcrossBoundary(60)) {
        const state = (await takeRequest(counters, 'B', { ...viewer, accountId: `${viewer.accountId}-${kind}` }, now))!;
        if (state.retryAfter === undefined) admitted.push(now);
        else refusals.push({ now, retryAfter: state.retryAfter, reset: state.reset });
      }
      expect(admitted).toHaveLength(60);
      expect(busiestMinute(admitted)).toBe(60);
      // A refused call is told when the oldest counted call leaves the window, i.e. when a slot frees.
      const first = refusals[0]!;
      expect(first.reset).toBe(Math.ceil((admitted[0]! + MINUTE) / 1000));
      expect(first.retryAfter).toBe(Math.ceil(first.reset - first.now / 1000));
      // Once the first call is 60 s old, exactly one slot is free again.
      const later = admitted[0]! + MINUTE;
      expect(
        (await takeRequest(counters, 'B', { ...viewer, accountId: `${viewer.accountId}-${kind}` }, later))!.retryAfter,
      ).toBeUndefined();
      expect(
        (await takeRequest(counters, 'B', { ...viewer, accountId: `${viewer.accountId}-${kind}` }, later + 1))!
          .retryAfter,
      ).toBeGreaterThan(0);
    });
  }

  it('holds across two gateways sharing Redis, with the documented headers', async () => {
    let now = BOUNDARY - 800;
    const gateways: FastifyInstance[] = [];
    for (let index = 0; index < 2; index += 1) {
      const limits: Limits = createLimits({ scheme: 'B', redisUrl: redis.url, sandboxCredits: 500 }, () => now);
      const app = await createServer({ databases: store.databases, limits });
      await app.ready();
      closers.push(async () => {
        await app.close();
        await limits.close();
      });
      gateways.push(app);
    }
    const account = await createAccount(store.databases.live, 'analyst');
    const { key } = await createApiKey(store.databases.live, account.id, 'live');
    const admitted: number[] = [];
    for (const [index, time] of burstAcrossBoundary(60).entries()) {
      now = time;
      const response = await gateways[index % 2]!.inject({
        method: 'GET',
        url: '/api/v1/usage',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.headers['x-ratelimit-limit']).toBe('60');
      if (response.statusCode === 200) {
        admitted.push(time);
        expect(response.headers['x-ratelimit-remaining']).toBe(String(60 - admitted.length));
      } else {
        expect(response.statusCode).toBe(429);
        expect(response.json().error).toBe('rate_limited');
        expect(response.headers['x-ratelimit-remaining']).toBe('0');
        expect(Number(response.headers['x-ratelimit-reset'])).toBe(Math.ceil((admitted[0]! + MINUTE) / 1000));
        expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(58);
      }
    }
    expect(busiestMinute(admitted)).toBe(60);
  });
});
