import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import type { Limits } from '../../gateway/limits/limits.ts';
import { createServer } from '../../gateway/server.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';

describe('two gateways behind one load balancer', () => {
  let redis: TestRedis;
  let store: TestDatabases;
  const opened: { app: FastifyInstance; limits: Limits }[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    store = await createTestDatabases();
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

  async function analystKey() {
    const account = await createAccount(store.databases.live, 'analyst');
    return (await createApiKey(store.databases.live, account.id, 'live')).key;
  }

  const call = (app: FastifyInstance, key: string) =>
    app.inject({ method: 'GET', url: '/api/v1/usage', headers: { authorization: `Bearer ${key}` } });

  it('enforces one limit across both when REDIS_URL is set: the 61st call is refused whichever gateway takes it', async () => {
    const [first, second] = [await gateway(redis.url), await gateway(redis.url)];
    const key = await analystKey();
    for (let index = 1; index <= 60; index += 1) {
      const response = await call(index % 2 ? first : second, key);
      expect(response.statusCode, `call ${index}`).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(60 - index));
    }
    for (const app of [first, second]) {
      const refused = await call(app, key);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('counts separately without Redis (the reason Redis is needed)', async () => {
    const [first, second] = [await gateway(), await gateway()];
    const key = await analystKey();
    for (let index = 1; index <= 60; index += 1) await call(index % 2 ? first : second, key);
    const response = await call(first, key);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-remaining']).toBe('29');
  });

  it('keeps the rolling daily quota of scheme A in Redis too', async () => {
    const limits = createLimits({ scheme: 'A', redisUrl: redis.url, sandboxCredits: 500 });
    const app = await createServer({ databases: store.databases, limits });
    opened.push({ app, limits });
    const account = await createAccount(store.databases.live, 'professional');
    const { key } = await createApiKey(store.databases.live, account.id, 'live');
    const first = await call(app, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('1000');
    expect(first.headers['x-ratelimit-remaining']).toBe('999');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(Math.abs(reset - (Date.now() / 1000 + 86_400))).toBeLessThan(10);
    const analyst = await call(app, await analystKey());
    expect(analyst.statusCode).toBe(403);
    expect(analyst.json()).toEqual({
      error: 'plan_required',
      message: 'The analyst plan does not include API access. Upgrade to call the API.',
      redirect: '/billing',
    });
  });
});
