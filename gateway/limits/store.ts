import { Redis, ReplyError } from 'ioredis';
import { env } from '../../subgraphs/platform/config.ts';
import { ServiceUnavailableError } from '../../subgraphs/platform/errors.ts';

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
  slide(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
  ): Promise<{ count: number; oldest: number; added: boolean }>;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Forgets a value written by `set`. */
  delete(key: string): Promise<void>;
  /** Forgets a sliding log (a login that succeeded clears its own failures). */
  clearLog(key: string): Promise<void>;
  /** Resolves when the store answers (readiness); throws StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The counter store (Redis) did not answer in time; each limit decides whether to fail open or closed (fail-open.ts). */
export class StoreUnavailableError extends ServiceUnavailableError {
  constructor() {
    super('The rate-limit store is not reachable. Try again shortly.');
  }
}

export interface RedisTimeouts {
  connectMs: number;
  commandMs: number;
}

export function createCounterStore(redisUrl?: string, timeouts?: RedisTimeouts): CounterStore {
  return redisUrl ? new RedisCounterStore(redisUrl, timeouts) : new MemoryCounterStore();
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

  async delete(key: string) {
    this.values.delete(key);
  }

  async clearLog(key: string) {
    this.logs.delete(key);
  }

  async ping() {}

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

  constructor(
    url: string,
    timeouts: RedisTimeouts = { connectMs: env.REDIS_CONNECT_TIMEOUT_MS, commandMs: env.REDIS_COMMAND_TIMEOUT_MS },
  ) {
    // Every command fails after commandMs, queued or sent; while Redis is away the queue is also emptied at each
    // failed reconnection (maxRetriesPerRequest), and reconnection goes on forever at most 2 s apart.
    this.redis = new Redis(url, {
      connectTimeout: timeouts.connectMs,
      commandTimeout: timeouts.commandMs,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    this.redis.on('error', () => undefined);
  }

  async increment(key: string, ttlMs: number) {
    // SET … NX starts the window once; INCR then counts in it (works on Redis before 7, which lacks PEXPIRE NX).
    const results = await unavailableUnlessAnswered(
      this.redis.multi().set(key, '0', 'PX', ttlMs, 'NX').incr(key).exec(),
    );
    const [error, count] = results?.[1] ?? [new StoreUnavailableError(), 0];
    if (error) throw error;
    return Number(count);
  }

  async slide(key: string, now: number, windowMs: number, limit: number) {
    const [count, oldest, added] = (await unavailableUnlessAnswered(
      this.redis.eval(SLIDE_SCRIPT, 1, key, now, windowMs, limit),
    )) as [number, number, number];
    return { count, oldest, added: added === 1 };
  }

  async get(key: string) {
    return (await unavailableUnlessAnswered(this.redis.get(key))) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number) {
    await unavailableUnlessAnswered(this.redis.set(key, value, 'PX', ttlMs));
  }

  async delete(key: string) {
    await unavailableUnlessAnswered(this.redis.del(key));
  }

  async clearLog(key: string) {
    // The log and the sequence SLIDE_SCRIPT numbers its entries with.
    await unavailableUnlessAnswered(this.redis.del(key, `${key}:seq`));
  }

  async ping() {
    await unavailableUnlessAnswered(this.redis.ping());
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Redis's own error replies are bugs of ours (a 500); anything else (timeout, refused, closed) means it is away. */
async function unavailableUnlessAnswered<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (error) {
    if (error instanceof ReplyError) throw error;
    throw new StoreUnavailableError();
  }
}
