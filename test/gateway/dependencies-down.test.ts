import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { limitFailOpenTotal } from '../../gateway/limits/fail-open.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import type { Limits } from '../../gateway/limits/limits.ts';
import { REQUEST_DEADLINE_MESSAGE } from '../../gateway/request-deadline.ts';
import { createServer } from '../../gateway/server.ts';
import type { ServerOptions } from '../../gateway/server.ts';
import { createSubgraphServer as createMarkets } from '../../subgraphs/markets/server.ts';
import { createSubgraphServer as createVerticals } from '../../subgraphs/verticals/server.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { liveKey } from '../support/live-key.ts';
import { startPausableProxy } from '../support/pausable-proxy.ts';
import type { PausableProxy } from '../support/pausable-proxy.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';
import { startSilentServer } from '../support/silent-server.ts';

const SECRET = 'a-shared-secret-of-the-gateway';
const SIGNALS = '{ signals(limit: 1) { nodes { id } } }';

/** Runs `call`, returning its result and how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await call();
  return [result, performance.now() - started];
}

/** Polls /readyz until it answers 200 (recovery without a restart), failing after `withinMs`. */
async function untilReady(app: FastifyInstance, withinMs = 30_000) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    if (response.statusCode === 200) return response;
    if (Date.now() > deadline) throw new Error(`still not ready: ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function portOf(app: FastifyInstance) {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

describe('Redis stopped while the gateway runs', () => {
  let redis: TestRedis;
  let store: TestDatabases;
  let limits: Limits;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    redis = await startTestRedis();
    store = await createTestDatabases();
    limits = createLimits({ scheme: 'B', redisUrl: redis.url, sandboxCredits: 500 });
    app = await createServer({ databases: store.databases, limits, readinessTimeoutMs: 1_500 });
    await app.ready();
    key = await liveKey(store.databases);
  });
  afterAll(async () => {
    await app?.close();
    await limits?.close();
    await store?.drop();
    await redis?.stop();
  });

  const usage = () => app.inject({ method: 'GET', url: '/api/v1/usage', headers: { authorization: `Bearer ${key}` } });

  it('counts in Redis while it is up', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const response = await usage();
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('60');
  });

  it('fails open for the rate limit and the per-field limits (200, no rate-limit headers, counted in a metric) and /readyz answers 503', async () => {
    await redis.stop();
    const before =
      (await limitFailOpenTotal.get()).values.find((value) => value.labels.limit === 'rate_limit')?.value ?? 0;
    const [response, elapsed] = await timed(usage);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(elapsed).toBeLessThan(5_000);
    const after =
      (await limitFailOpenTotal.get()).values.find((value) => value.labels.limit === 'rate_limit')?.value ?? 0;
    expect(after).toBeGreaterThan(before);

    // Query.ticker has a per-field limit (30 a minute), which fails open too.
    const fieldBefore =
      (await limitFailOpenTotal.get()).values.find((value) => value.labels.limit === 'field')?.value ?? 0;
    const ticker = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${key}` },
      payload: { query: '{ ticker(symbol: "ACME") { found } }' },
    });
    expect(ticker.statusCode, ticker.body).toBe(200);
    expect(ticker.json().data.ticker.found).toBe(false);
    const fieldAfter =
      (await limitFailOpenTotal.get()).values.find((value) => value.labels.limit === 'field')?.value ?? 0;
    expect(fieldAfter).toBeGreaterThan(fieldBefore);

    const [ready, readyElapsed] = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: 'service_unavailable', message: expect.stringContaining('Redis') });
    expect(readyElapsed).toBeLessThan(5_000);
  });

  it('fails closed for the failed-login throttle: 503 service_unavailable, never 500', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
  });

  it('is ready and counts again once Redis is back on the same port, without a restart', async () => {
    redis = await startTestRedis({ port: Number(new URL(redis.url).port) });
    await untilReady(app);
    const first = await usage();
    const second = await usage();
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('60');
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });
});

describe('subgraph services reached by URL', () => {
  let store: TestDatabases;
  let verticals: FastifyInstance;
  let markets: FastifyInstance;
  let marketsPort: number;
  let gateway: FastifyInstance;
  let key: string;
  const extra: FastifyInstance[] = [];

  const urlOf = (port: number) => `http://127.0.0.1:${port}/graphql`;
  const startMarkets = async (port = 0) => {
    const app = await createMarkets({ databases: store.databases, secret: SECRET });
    await app.listen({ port, host: '127.0.0.1' });
    return app;
  };
  const gatewayTo = async (marketsUrl: string, options: Omit<ServerOptions, 'databases'> = {}) => {
    const app = await createServer({
      databases: store.databases,
      subgraphUrls: { markets: marketsUrl, verticals: urlOf(portOf(verticals)) },
      gatewaySecret: SECRET,
      readinessTimeoutMs: 1_500,
      ...options,
    });
    await app.ready();
    return app;
  };
  const graphql = (app: FastifyInstance) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${key}` },
      payload: { query: SIGNALS },
    });

  beforeAll(async () => {
    store = await createTestDatabases();
    verticals = await createVerticals({ databases: store.databases, secret: SECRET });
    await verticals.listen({ port: 0, host: '127.0.0.1' });
    markets = await startMarkets();
    marketsPort = portOf(markets);
    gateway = await gatewayTo(urlOf(marketsPort));
    key = await liveKey(store.databases, 'institutional');
  });
  afterAll(async () => {
    for (const app of [gateway, ...extra, markets, verticals]) await app?.close();
    await store?.drop();
  });

  it('is ready and answers while both subgraphs are up', async () => {
    expect((await gateway.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await graphql(gateway)).statusCode).toBe(200);
  });

  it('answers 503 service_unavailable over GraphQL and REST, and /readyz names the subgraph, while markets is down', async () => {
    await markets.close();
    const ready = await gateway.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: 'service_unavailable', message: expect.stringContaining('markets') });

    const response = await graphql(gateway);
    expect(response.statusCode).toBe(503);
    expect(response.json().errors[0].extensions.code).toBe('service_unavailable');
    expect(response.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    const rest = await gateway.inject({
      method: 'GET',
      url: '/api/signals?limit=1',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(rest.statusCode).toBe(503);
    expect(rest.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
  });

  it('recovers when markets is back on its port, without restarting the gateway', async () => {
    markets = await startMarkets(marketsPort);
    await untilReady(gateway);
    expect((await graphql(gateway)).statusCode).toBe(200);
  });

  describe('a subgraph that accepts connections but never answers', () => {
    let silent: Awaited<ReturnType<typeof startSilentServer>>;

    beforeAll(async () => {
      silent = await startSilentServer();
    });
    afterAll(() => silent.close());
    const silentUrl = () => urlOf(silent.port);

    it('is cut off after SUBGRAPH_TIMEOUT_MS: 503 service_unavailable', async () => {
      const app = await gatewayTo(silentUrl(), { subgraphTimeoutMs: 1_000 });
      extra.push(app);
      const [response, elapsed] = await timed(() => graphql(app));
      expect(response.statusCode).toBe(503);
      expect(response.json().errors[0].extensions.code).toBe('service_unavailable');
      expect(elapsed).toBeLessThan(10_000);
      const [ready, readyElapsed] = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
      expect(ready.statusCode).toBe(503);
      expect(readyElapsed).toBeLessThan(10_000);
    });

    it('is answered by the request deadline (REQUEST_TIMEOUT_MS) when that comes first: 503 with our GraphQL error', async () => {
      const app = await gatewayTo(silentUrl(), { subgraphTimeoutMs: 30_000, requestTimeoutMs: 1_000 });
      extra.push(app);
      const [response, elapsed] = await timed(() => graphql(app));
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        errors: [{ message: REQUEST_DEADLINE_MESSAGE, extensions: { code: 'service_unavailable' } }],
      });
      expect(elapsed).toBeLessThan(10_000);
    });
  });
});

// PGlite runs inside the gateway's process and cannot freeze apart from it (nor does it enforce statement_timeout):
// the request deadline above is what bounds a request there.
if (TEST_ENGINE === 'postgres') {
  describe('a PostgreSQL server that stops answering (frozen, as by SIGSTOP)', () => {
    let store: TestDatabases;
    const proxies: PausableProxy[] = [];
    const proxied = {} as Record<Mode, Database>;
    let app: FastifyInstance;
    let key: string;

    beforeAll(async () => {
      store = await createTestDatabases();
      for (const mode of ['live', 'sandbox'] as const) {
        const url = new URL(store.urls[mode]!);
        const proxy = await startPausableProxy({ host: url.hostname, port: Number(url.port) });
        proxies.push(proxy);
        url.host = `127.0.0.1:${proxy.port}`;
        proxied[mode] = await openDatabase({
          mode,
          url: url.toString(),
          timeouts: { connectMs: 2_000, statementMs: 1_500, queryMs: 2_500, idleInTransactionMs: 3_000 },
        });
      }
      app = await createServer({
        databases: proxied,
        dataDir: store.dataDir,
        readinessTimeoutMs: 1_500,
        requestTimeoutMs: 20_000,
      });
      await app.ready();
      key = await liveKey(store.databases);
    });
    afterAll(async () => {
      for (const proxy of proxies) proxy.resume();
      await app?.close();
      for (const database of Object.values(proxied)) await database.close().catch(() => undefined);
      for (const proxy of proxies) await proxy.close();
      await store?.drop();
    });

    const signals = () =>
      app.inject({ method: 'GET', url: '/api/signals?limit=1', headers: { authorization: `Bearer ${key}` } });

    it('answers 503 database_unavailable within the configured timeouts, and /readyz 503 promptly', async () => {
      expect((await signals()).statusCode).toBe(200);
      for (const proxy of proxies) proxy.pause();
      const [response, elapsed] = await timed(signals);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toEqual({ error: 'database_unavailable', message: expect.any(String) });
      expect(elapsed).toBeLessThan(15_000);

      const [ready, readyElapsed] = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error).toBe('database_unavailable');
      expect(readyElapsed).toBeLessThan(5_000);
    });

    it('answers again once the server does, without a restart', async () => {
      for (const proxy of proxies) proxy.resume();
      await untilReady(app);
      const response = await signals();
      expect(response.statusCode, response.body).toBe(200);
    });
  });
}
