/**
 * Automatic persisted queries: a hash registered on one gateway is known to every gateway sharing REDIS_URL,
 * kept with a lifetime, and a Redis that does not answer makes a lookup a miss rather than an error.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import type { Limits } from '../../gateway/limits/limits.ts';
import { MemoryCounterStore } from '../../gateway/limits/store.ts';
import { PERSISTED_QUERIES, StoreKeyValueCache } from '../../gateway/graphql/persisted-queries.ts';
import { createServer } from '../../gateway/server.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { freePort } from '../../scripts/free-port.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';

const QUERY = 'query Stats { publicStats { membersTracked tickersTracked } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');
const persisted = { persistedQuery: { version: 1, sha256Hash: HASH } };
const NOT_FOUND = { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'invalid_parameter' } }] };

describe('automatic persisted queries', () => {
  let redis: TestRedis;
  let store: TestDatabases;
  let key: string;
  const opened: { app: FastifyInstance; limits: Limits }[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    store = await createTestDatabases();
    const account = await createAccount(store.databases.live, 'analyst');
    ({ key } = await createApiKey(store.databases.live, account.id, 'live'));
  });
  afterAll(async () => {
    for (const { app, limits } of opened) {
      await app.close();
      await limits.close();
    }
    await store?.drop();
    await redis?.stop();
  });

  async function gateway(redisUrl?: string) {
    const limits = createLimits({ scheme: 'B', redisUrl, sandboxCredits: 500 });
    const app = await createServer({ databases: store.databases, limits });
    await app.ready();
    opened.push({ app, limits });
    return app;
  }

  /** The hash alone, by GET as a CDN-cached client sends it. */
  const byHash = (app: FastifyInstance) =>
    app.inject({
      method: 'GET',
      url: `/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted))}`,
      headers: { authorization: `Bearer ${key}` },
    });
  const register = (app: FastifyInstance) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${key}` },
      payload: { query: QUERY, extensions: persisted },
    });

  it('shares a hash registered on one gateway with another through Redis, with a lifetime', async () => {
    const [first, second] = [await gateway(redis.url), await gateway(redis.url)];
    const unknown = await byHash(second);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(NOT_FOUND);

    const registered = await register(first);
    expect(registered.json()).toEqual({ data: { publicStats: { membersTracked: 0, tickersTracked: 0 } } });
    const known = await byHash(second);
    expect(known.statusCode, known.body).toBe(200);
    expect(known.json()).toEqual(registered.json());

    const client = new Redis(redis.url);
    try {
      const ttl = await client.pttl(`graphql:apq:${HASH}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(PERSISTED_QUERIES.ttlSeconds * 1000);
      expect(await client.get(`graphql:apq:${HASH}`)).toBe(QUERY);
    } finally {
      client.disconnect();
    }
  });

  it('keeps each gateway its own cache without Redis (the reason Redis is needed)', async () => {
    const [first, second] = [await gateway(), await gateway()];
    await register(first);
    expect((await byHash(first)).json().data).toBeDefined();
    expect((await byHash(second)).json()).toEqual(NOT_FOUND);
  });

  it('answers a lookup as unknown and still runs the full text when Redis does not answer', async () => {
    const app = await gateway(`redis://127.0.0.1:${await freePort()}`);
    const lookup = await byHash(app);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual(NOT_FOUND);
    const full = await register(app);
    expect(full.statusCode).toBe(200);
    expect(full.json().data.publicStats).toEqual({ membersTracked: 0, tickersTracked: 0 });
  });

  it('does not keep a document larger than the bound', async () => {
    const cache = new StoreKeyValueCache(new MemoryCounterStore());
    await cache.set('small', 'x'.repeat(PERSISTED_QUERIES.maxDocumentBytes));
    await cache.set('large', 'x'.repeat(PERSISTED_QUERIES.maxDocumentBytes + 1));
    expect(await cache.get('small')).toHaveLength(PERSISTED_QUERIES.maxDocumentBytes);
    expect(await cache.get('large')).toBeUndefined();
  });
});
