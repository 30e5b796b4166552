import type { PersistedQueryOptions } from '@apollo/server';
import { logger } from '../../subgraphs/platform/logger.ts';
import { StoreUnavailableError } from '../limits/store.ts';
import type { CounterStore } from '../limits/store.ts';

type KeyValueCache = NonNullable<PersistedQueryOptions['cache']>;

/**
 * Automatic persisted queries (docs/api.md "Automatic persisted queries"): how long a registered document is kept,
 * and the largest kept. Apollo Server stores a document only after it parsed, validated and passed the operation
 * checks; a larger one still runs, it is just not kept (its client keeps sending the text).
 */
export const PERSISTED_QUERIES = { ttlSeconds: 86_400, maxDocumentBytes: 10_240 } as const;

const KEY_PREFIX = 'graphql:';
const WARNING_INTERVAL_MS = 10_000;

/**
 * Apollo Server's cache of persisted documents in the counter store's Redis, so every gateway behind the load
 * balancer knows a hash any of them registered. It fails open like the rate limits: when Redis does not answer
 * within REDIS_COMMAND_TIMEOUT_MS a lookup is a miss (the client sends the text again, as after an expiry) and a
 * write is skipped, with a warning at most every 10 s.
 */
export class StoreKeyValueCache implements KeyValueCache {
  private lastWarning = 0;

  constructor(
    private readonly store: CounterStore,
    private readonly maxValueBytes: number = PERSISTED_QUERIES.maxDocumentBytes,
  ) {}

  async get(key: string): Promise<string | undefined> {
    try {
      return await this.store.get(KEY_PREFIX + key);
    } catch (error) {
      this.failOpen(error);
      return undefined;
    }
  }

  async set(key: string, value: string, options?: { ttl?: number | null }): Promise<void> {
    if (Buffer.byteLength(value) > this.maxValueBytes) return;
    const ttlSeconds = options?.ttl ?? PERSISTED_QUERIES.ttlSeconds;
    try {
      await this.store.set(KEY_PREFIX + key, value, ttlSeconds * 1000);
    } catch (error) {
      this.failOpen(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.store.delete(KEY_PREFIX + key);
    } catch (error) {
      this.failOpen(error);
    }
  }

  /** Redis away: carry on without the cache. Anything else (an error reply) is a bug of ours and is thrown. */
  private failOpen(error: unknown): void {
    if (!(error instanceof StoreUnavailableError)) throw error;
    const now = Date.now();
    if (now - this.lastWarning >= WARNING_INTERVAL_MS) {
      this.lastWarning = now;
      logger.warn('counter store unreachable: persisted queries answered as unknown');
    }
  }
}

/** Apollo Server's `persistedQueries`: in Redis when the limits use it, else Apollo's bounded in-memory cache. */
export function persistedQueryOptions(store: CounterStore, shared: boolean): PersistedQueryOptions {
  return { ttl: PERSISTED_QUERIES.ttlSeconds, ...(shared ? { cache: new StoreKeyValueCache(store) } : {}) };
}
