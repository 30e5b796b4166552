import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ANONYMOUS_LIMITS } from '../../gateway/access/anonymous-limit.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import { createServer } from '../../gateway/server.ts';
import type { ServerOptions } from '../../gateway/server.ts';
import { parseEnvironment } from '../../subgraphs/platform/config.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { liveKey } from '../support/live-key.ts';
import { loadMarketFixture } from '../markets/fixture.ts';

let store: TestDatabases;
const opened: (() => Promise<void>)[] = [];
let now = Date.UTC(2030, 0, 1, 12, 0, 30);

beforeAll(async () => {
  store = await createTestDatabases();
  // Public routes read the live database.
  await loadMarketFixture(store.databases.live);
});
afterAll(async () => {
  for (const close of opened) await close();
  await store?.drop();
});

/** A gateway of its own (its own counters, a clock the test moves) over the shared databases. */
async function gateway(options: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  const limits = createLimits({ scheme: 'B', sandboxCredits: 500 }, () => now);
  const app = await createServer({ ...options, databases: store.databases, limits });
  await app.ready();
  opened.push(async () => {
    await app.close();
    await limits.close();
  });
  return app;
}

const search = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/api/search?q=nvda', remoteAddress, headers });

function expectRefusal(response: LightMyRequestResponse, limit: number) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({
    error: 'rate_limited',
    message: expect.stringMatching(new RegExp(`^Rate limit of ${limit} requests exceeded; retry in \\d+ seconds\\.$`)),
  });
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(Number(response.headers['x-ratelimit-reset'])).toBe(Math.ceil(now / 1000) + retryAfter);
}

describe('anonymous callers of public routes, per client address', () => {
  it(`allow ${ANONYMOUS_LIMITS.public.max} calls a minute across the public routes, then a 429 with the plan limits’ headers`, async () => {
    const app = await gateway();
    const { max } = ANONYMOUS_LIMITS.public;
    expect(max).toBe(60);
    expect(ANONYMOUS_LIMITS.login.max).toBe(30);
    for (let call = 1; call <= max; call += 1) {
      const response =
        call % 3
          ? await search(app, '203.0.113.7')
          : await app.inject({ method: 'GET', url: '/api/stats/public', remoteAddress: '203.0.113.7' });
      expect(response.statusCode, `call ${call}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(max));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(max - call));
    }
    expectRefusal(await search(app, '203.0.113.7'), max);
    expectRefusal(await app.inject({ method: 'GET', url: '/api/stats/public', remoteAddress: '203.0.113.7' }), max);
    // Another address has its own budget; the health checks are never limited.
    expect((await search(app, '203.0.113.8')).statusCode).toBe(200);
    for (const url of ['/healthz', '/readyz']) {
      const health = await app.inject({ method: 'GET', url, remoteAddress: '203.0.113.7' });
      expect(health.statusCode).toBe(200);
      expect(health.headers['x-ratelimit-limit']).toBeUndefined();
    }
    // The window slides: a minute after the first call, one slot is free again.
    now += 60_000;
    expect((await search(app, '203.0.113.7')).statusCode).toBe(200);
  });

  it('count an IPv6 client by its /64', async () => {
    const app = await gateway();
    for (let call = 1; call <= ANONYMOUS_LIMITS.public.max; call += 1) {
      expect((await search(app, `2001:db8:1:2::${call.toString(16)}`)).statusCode).toBe(200);
    }
    expectRefusal(await search(app, '2001:db8:1:2:ffff::1'), ANONYMOUS_LIMITS.public.max);
    expect((await search(app, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it(`give login its own, lower budget of ${ANONYMOUS_LIMITS.login.max} tries a minute`, async () => {
    const app = await gateway();
    const login = (index: number) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '198.51.100.4',
        payload: { email: `nobody${index}@example.com`, password: 'wrong' },
      });
    for (let index = 1; index <= ANONYMOUS_LIMITS.login.max; index += 1) {
      const response = await login(index);
      expect(response.statusCode, `try ${index}`).toBe(401);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(ANONYMOUS_LIMITS.login.max - index));
    }
    expectRefusal(await login(99), ANONYMOUS_LIMITS.login.max);
    // Login's budget is its own: the public routes still answer this address.
    expect((await search(app, '198.51.100.4')).statusCode).toBe(200);
  });

  it('read TRUST_PROXY as off by default, true, a hop count or a list of proxy addresses', () => {
    expect(parseEnvironment({}).TRUST_PROXY).toBe(false);
    expect(parseEnvironment({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseEnvironment({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnvironment({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('take the client address from X-Forwarded-For only behind TRUST_PROXY', async () => {
    const direct = await gateway();
    const proxied = await gateway({ trustProxy: true });
    for (let call = 1; call <= ANONYMOUS_LIMITS.public.max; call += 1) {
      // Without trust, a forged header changes nothing: the connection's address is counted.
      expect((await search(direct, '192.0.2.1', { 'x-forwarded-for': `10.0.0.${call}` })).statusCode).toBe(200);
      expect((await search(proxied, '192.0.2.1', { 'x-forwarded-for': '198.51.100.77' })).statusCode).toBe(200);
    }
    expect((await search(direct, '192.0.2.1', { 'x-forwarded-for': '10.9.9.9' })).statusCode).toBe(429);
    expect((await search(proxied, '192.0.2.1', { 'x-forwarded-for': '198.51.100.77' })).statusCode).toBe(429);
    // Behind the balancer, each forwarded client has its own budget.
    expect((await search(proxied, '192.0.2.1', { 'x-forwarded-for': '198.51.100.78' })).statusCode).toBe(200);
  });
});

describe('GET /api/search and the plan table', () => {
  it('gives anonymous and analyst callers the open profile fields and null for the professional ones', async () => {
    const app = await gateway();
    const anonymous = await search(app, '192.0.2.50');
    expect(anonymous.statusCode).toBe(200);
    const professional = await search(app, '192.0.2.50', {
      authorization: `Bearer ${await liveKey(store.databases, 'professional')}`,
    });
    expect(professional.statusCode).toBe(200);
    const analyst = await search(app, '192.0.2.50', {
      authorization: `Bearer ${await liveKey(store.databases, 'analyst')}`,
    });
    expect(analyst.statusCode).toBe(200);

    const hidden = {
      marketCap: null,
      ceo: null,
      description: null,
      website: null,
      employees: null,
      headquarters: null,
      founded: null,
      cik: null,
      updatedAt: null,
    };
    const open = { companyName: 'NVIDIA Corporation', sector: 'Technology', industry: 'Semiconductors' };
    expect(anonymous.json().profile).toEqual({ ...open, ...hidden });
    expect(analyst.json().profile).toEqual({ ...open, ...hidden });
    expect(professional.json().profile).toMatchObject({
      ...open,
      ceo: 'Jensen Huang',
      marketCap: 3.5e12,
      description: 'GPUs.',
      cik: '0001045810',
    });
    // The same body shape for everyone, the rest of the search included.
    expect(Object.keys(anonymous.json()).sort()).toEqual(Object.keys(professional.json()).sort());
    expect(anonymous.json().quote).toEqual(professional.json().quote);

    // With a credential the call is the account's: its plan's limit and headers, not the address's.
    expect(professional.headers['x-ratelimit-limit']).toBe('300');
    expect(analyst.headers['x-ratelimit-limit']).toBe('60');
    expect(anonymous.headers['x-ratelimit-limit']).toBe(String(ANONYMOUS_LIMITS.public.max));
    const forged = await search(app, '192.0.2.50', { authorization: 'Bearer sk_live_forged' });
    expect(forged.statusCode).toBe(401);
  });

  it('still refuses analysts the professional profile fields over GraphQL and the enrich route', async () => {
    const app = await gateway();
    const authorization = `Bearer ${await liveKey(store.databases, 'analyst')}`;
    const graphql = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization },
      payload: { query: '{ ticker(symbol: "NVDA") { profile { companyName ceo } } }' },
    });
    expect(graphql.statusCode).toBe(403);
    expect(graphql.json().errors[0].extensions.code).toBe('plan_required');
    const open = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization },
      payload: { query: '{ ticker(symbol: "NVDA") { profile { companyName sector } } }' },
    });
    expect(open.json()).toEqual({
      data: { ticker: { profile: { companyName: 'NVIDIA Corporation', sector: 'Technology' } } },
    });
    expect((await app.inject({ method: 'GET', url: '/api/enrich/NVDA', headers: { authorization } })).statusCode).toBe(
      403,
    );
  });
});
