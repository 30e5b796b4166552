import { Redis } from 'ioredis';

/**
 * Where rate-limit counters live: this process's memory by default, Redis when REDIS_URL is set so that
 * every gateway behind a load balancer counts against one limit. Each operation is atomic in both stores.
 */
export interface CounterStore {
  /** Adds one to `key` (created with a lifetime of `ttlMs`) and returns the new count. */
  increment(key: string, ttlMs: number): Promise<number>;
  /**
   * A sliding log of request times: forgets entries older than `windowMs`, records `now` if fewer than
   * `limit` remain, and returns the count (including `now` when recorded) and the oldest entry.
   */
  slide(key: string, now: number, windowMs: number, limit: number): Promise<{ count: number; oldest: number; added: boolean }>;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}

export function createCounterStore(redisUrl?: string): CounterStore {
  return redisUrl ? new RedisCounterStore(redisUrl) : new MemoryCounterStore();
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { value: number; expiresAt: number }>();
  private readonly logs = new Map<string, { times: number[]; expiresAt: number }>();
  private readonly values = new Map<string, { value: string; expiresAt: number }>();

  async increment(key: string, ttlMs: number) {
    const now = Date.now();
    const current = this.counters.get(key);
    const entry = current && current.expiresAt > now ? current : { value: 0, expiresAt: now + ttlMs };
    entry.value += 1;
    this.counters.set(key, entry);
    if (this.counters.size > 10_000) this.sweep(now);
    return entry.value;
  }

  async slide(key: string, now: number, windowMs: number, limit: number) {
    const log = (this.logs.get(key)?.times ?? []).filter((time) => time > now - windowMs);
    const added = log.length < limit;
    if (added) log.push(now);
    // Logs keyed by client address come and go: forget each once its newest entry has left the window.
    this.logs.set(key, { times: log, expiresAt: (log.at(-1) ?? now) + windowMs });
    if (this.logs.size > 10_000) this.sweep(now);
    return { count: log.length, oldest: log[0] ?? now, added };
  }

  async get(key: string) {
    const entry = this.values.get(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  async set(key: string, value: string, ttlMs: number) {
    this.values.set(key, { value, expiresAt: Date.now() + ttlMs });
  }

  async close() {}

  private sweep(now: number) {
    for (const [key, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(key);
    for (const [key, entry] of this.logs) if (entry.expiresAt <= now) this.logs.delete(key);
  }
}

/** KEYS[1] log; ARGV now, windowMs, limit. A Lua script, so concurrent gateways cannot both take the last slot. */
const SLIDE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
local added = 0
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1] .. '-' .. redis.call('INCR', KEYS[1] .. ':seq'))
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[1] .. ':seq', ARGV[2])
  count = count + 1
  added = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ARGV[1]
return {count, tonumber(oldest), added}
`;

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  constructor(url: string) {
    // Fail a request quickly rather than queueing it while Redis is away.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    this.redis.on('error', () => undefined);
  }

  async increment(key: string, ttlMs: number) {
    // SET … NX starts the window once; INCR then counts in it (works on Redis before 7, which lacks PEXPIRE NX).
    const results = await this.redis.multi().set(key, '0', 'PX', ttlMs, 'NX').incr(key).exec();
    const [error, count] = results?.[1] ?? [new Error('the Redis transaction was discarded'), 0];
    if (error) throw error;
    return Number(count);
  }

  async slide(key: string, now: number, windowMs: number, limit: number) {
    const [count, oldest, added] = (await this.redis.eval(SLIDE_SCRIPT, 1, key, now, windowMs, limit)) as [number, number, number];
    return { count, oldest, added: added === 1 };
  }

  async get(key: string) {
    return (await this.redis.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number) {
    await this.redis.set(key, value, 'PX', ttlMs);
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
