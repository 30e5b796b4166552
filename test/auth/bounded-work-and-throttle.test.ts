import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoundedWork, SaturatedError } from '../../gateway/auth/bounded-work.ts';
import { createLoginThrottle } from '../../gateway/auth/login-throttle.ts';
import { MemoryCounterStore, RedisCounterStore } from '../../gateway/limits/store.ts';
import type { CounterStore } from '../../gateway/limits/store.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('bounded work (the password-hashing bound)', () => {
  it('runs at most `concurrency` tasks, queues at most `queue`, and refuses the rest at once', async () => {
    const work = createBoundedWork({ concurrency: 2, queue: 1 });
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, index) =>
      work.run(async () => {
        started.push(index);
        await g.opened;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([work.active, work.waiting]).toEqual([2, 1]);
    await expect(work.run(async () => 'never')).rejects.toBeInstanceOf(SaturatedError);

    gates[0]!.open();
    expect(await runs[0]).toBe(0);
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.open();
    gates[2]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect([work.active, work.waiting]).toEqual([0, 0]);
  });

  it('frees the slot of a task that fails', async () => {
    const work = createBoundedWork({ concurrency: 1, queue: 0 });
    await expect(
      work.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await work.run(async () => 'next')).toBe('next');
  });
});

describe.each(['memory', 'redis'] as const)('login throttle on the %s store', (kind) => {
  let redis: TestRedis | undefined;
  let store: CounterStore;
  beforeAll(async () => {
    if (kind === 'redis') redis = await startTestRedis();
    store = redis ? new RedisCounterStore(redis.url) : new MemoryCounterStore();
  });
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('gives exactly 10 slots to 100 parallel attempts on one address from one IP', async () => {
    const throttle = createLoginThrottle(store);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => throttle.reserve(`race-${kind}@example.com`, '10.0.0.1')),
    );
    expect(results.filter((result) => result === undefined)).toHaveLength(10);
    const refused = results.filter((result) => result !== undefined);
    expect(refused.every((result) => result!.retryAfterSeconds >= 1 && result!.retryAfterSeconds <= 60)).toBe(true);
    // The owner's own IP has its own slots.
    expect(await throttle.reserve(`race-${kind}@example.com`, '10.0.0.2')).toBeUndefined();
  });

  it('caps an address across IPs, except for IPs that logged in to it before', async () => {
    const email = `spread-${kind}@example.com`;
    const throttle = createLoginThrottle(store, {
      attemptsPerAddressAndIp: 2,
      attemptsPerAddress: 3,
      windowMs: 60_000,
      knownIpMs: 60_000,
    });
    expect(await throttle.reserve(email, '10.0.1.9')).toBeUndefined();
    await throttle.succeeded(email, '10.0.1.9');
    const strangers = await Promise.all(
      ['10.0.1.1', '10.0.1.2', '10.0.1.3', '10.0.1.4'].map((ip) => throttle.reserve(email, ip)),
    );
    expect(strangers.filter((result) => result === undefined)).toHaveLength(2);
    expect(await throttle.reserve(email, '10.0.1.5')).toBeDefined();
    // The owner's known IP is under its own pair limit only, counted afresh since its success.
    expect(await throttle.reserve(email, '10.0.1.9')).toBeUndefined();
    expect(await throttle.reserve(email, '10.0.1.9')).toBeUndefined();
    expect(await throttle.reserve(email, '10.0.1.9')).toBeDefined();
  });
});
