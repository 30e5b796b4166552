import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionTokens } from '../../gateway/auth/sessions.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DashboardClient, accountWithPassword } from './dashboard-client.ts';

/**
 * The dashboard's session cookie and CSRF rules over real HTTP: the cookie authenticates /account/api/* only,
 * every change there needs the CSRF token, and the API keeps its bearer credentials, which need no token.
 */
const SECRETS = ['s'.repeat(32)];
const email = 'owner@example.com';
const password = 'a long enough password';

let service: TestService;
let accountId: string;

beforeAll(async () => {
  service = await startTestService({
    server: { sessions: createSessionTokens({ secrets: SECRETS, ttlSeconds: 600 }) },
  });
  accountId = (await accountWithPassword(service, email, password, 'professional')).id;
});
afterAll(() => service?.stop());

const keyCount = async () => (await service.databases.live.prisma.apiKey.count({ where: { accountId } })) as number;

describe('the session cookie', () => {
  it('is HttpOnly, Secure, SameSite=Strict and __Host- scoped, as is the CSRF secret', async () => {
    const browser = new DashboardClient(service);
    const opened = await browser.open();
    expect(opened.body).toMatchObject({ account: null, signup: 'closed', csrf_token: expect.any(String) });
    const [csrfCookie] = opened.headers.getSetCookie();
    expect(csrfCookie).toMatch(/^__Host-csrf=[^;]+/);

    const login = await browser.call('POST', '/account/api/login', { body: { email, password }, csrf: true });
    expect(login.status, login.text).toBe(200);
    expect(login.body.account).toEqual({ id: accountId, email, plan: 'professional' });
    const [sessionCookie] = login.headers.getSetCookie();
    for (const cookie of [csrfCookie!, sessionCookie!]) {
      const attributes = cookie.split(/;\s*/).slice(1);
      expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']));
      expect(attributes.some((attribute) => /^domain=/i.test(attribute))).toBe(false);
    }
    expect(sessionCookie).toMatch(/^__Host-session=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(sessionCookie).toContain('Max-Age=3600');

    const session = await browser.call('GET', '/account/api/session');
    expect(session.body.account).toEqual({ id: accountId, email, plan: 'professional' });
    expect(session.headers.get('cache-control')).toBe('no-store');
  });

  it('never authenticates the data API, and the dashboard takes no bearer credential', async () => {
    const browser = new DashboardClient(service);
    await browser.signIn(email, password);
    const cookie = browser.cookieHeader();
    const withCookie = { headers: { cookie, 'x-csrf-token': browser.csrfToken } };
    for (const [method, path] of [
      ['GET', '/api/keys'],
      ['GET', '/api/v1/usage'],
      ['GET', '/api/signals'],
    ] as const) {
      const response = await service.request(method, path, withCookie);
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    // A field that needs a credential (the schema and the public fields answer anyone).
    const graphql = await service.request('POST', '/graphql', {
      ...withCookie,
      body: { query: '{ signals(limit: 1) { nodes { id } } }' },
    });
    expect(graphql.status).toBe(401);
    const created = await service.request('POST', '/api/keys', { ...withCookie, body: { mode: 'live' } });
    expect(created.status).toBe(401);

    // The cookie's token is not an API session token (another issuer), nor the reverse.
    const token = browser.cookies.get('__Host-session')!;
    expect((await service.request('GET', '/api/keys', { key: token })).status).toBe(401);
    const apiSession = await service.request('POST', '/api/auth/login', { body: { email, password } });
    const forged = new DashboardClient(service);
    forged.cookies.set('__Host-session', apiSession.body.token);
    expect((await forged.call('GET', '/account/api/keys')).status).toBe(401);
    expect((await forged.call('GET', '/account/api/session')).body.account).toBeNull();

    // A bearer credential, even the account's own, does not open the dashboard's routes.
    const bearer = await service.request('GET', '/account/api/keys', { key: apiSession.body.token });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toMatchObject({ error: 'unauthorized' });
  });

  it('refuses a change without the CSRF token, or with another browser’s, and writes nothing', async () => {
    const browser = new DashboardClient(service);
    await browser.signIn(email, password);
    const other = new DashboardClient(service);
    await other.open();
    const before = await keyCount();

    const missing = await browser.call('POST', '/account/api/keys', { body: { name: 'x', mode: 'live' } });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: 'csrf_token_invalid', message: expect.stringContaining('x-csrf-token') });
    const foreign = await browser.call('POST', '/account/api/keys', {
      body: { name: 'x', mode: 'live' },
      headers: { 'x-csrf-token': other.csrfToken },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('csrf_token_invalid');
    // The token alone, without this browser's secret cookie, is nothing either.
    const secretless = await service.request('POST', '/account/api/keys', {
      body: { name: 'x', mode: 'live' },
      headers: { cookie: `__Host-session=${browser.cookies.get('__Host-session')}`, 'x-csrf-token': browser.csrfToken },
    });
    expect(secretless.status).toBe(403);
    expect(await keyCount()).toBe(before);

    const key = (await browser.call('POST', '/account/api/keys', { body: { name: 'x', mode: 'live' }, csrf: true }))
      .body;
    expect(key.key).toMatch(/^sk_live_/);
    const revokeWithout = await browser.call('DELETE', `/account/api/keys/${key.id}`);
    expect(revokeWithout.status).toBe(403);
    expect((await service.request('GET', '/api/signals', { key: key.key })).status).toBe(200);

    // Sign-in is a change too: without the token no session is given.
    const fresh = new DashboardClient(service);
    await fresh.open();
    const login = await fresh.call('POST', '/account/api/login', { body: { email, password } });
    expect(login.status).toBe(403);
    expect(fresh.cookies.has('__Host-session')).toBe(false);
  });

  it('lets bearer calls manage keys with no CSRF token at all', async () => {
    const apiSession = await service.request('POST', '/api/auth/login', { body: { email, password } });
    const created = await service.request('POST', '/api/keys', { key: apiSession.body.token, body: { mode: 'live' } });
    expect(created.status, created.text).toBe(201);
    const revoked = await service.request('DELETE', `/api/keys/${created.body.id}`, { key: created.body.key });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
  });

  it('signs out by clearing the cookie', async () => {
    const browser = new DashboardClient(service);
    await browser.signIn(email, password);
    const logout = await browser.call('POST', '/account/api/logout', { csrf: true });
    expect(logout.status).toBe(204);
    const [cleared] = logout.headers.getSetCookie();
    expect(cleared).toMatch(/^__Host-session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(browser.cookies.has('__Host-session')).toBe(false);
    expect((await browser.call('GET', '/account/api/keys')).status).toBe(401);
  });
});

describe('the dashboard’s key, usage and webhook calls', () => {
  it('creates, lists and revokes keys as /api/keys does, with sandbox credits, and another account’s key is a 404', async () => {
    const browser = new DashboardClient(service);
    await browser.signIn(email, password);
    const sandbox = await browser.call('POST', '/account/api/keys', {
      body: { name: 'trial', mode: 'sandbox' },
      csrf: true,
    });
    expect(sandbox.status).toBe(201);
    expect(sandbox.body).toMatchObject({ name: 'trial', mode: 'sandbox', key: expect.stringMatching(/^sk_test_/) });
    for (let call = 0; call < 3; call += 1) {
      expect((await service.request('GET', '/api/signals', { key: sandbox.body.key })).status).toBe(200);
    }
    const { keys } = (await browser.call('GET', '/account/api/keys')).body;
    const listed = keys.find((key: { id: string }) => key.id === sandbox.body.id);
    expect(listed).toMatchObject({ calls_used: 3, credits_remaining: 497, last_used_at: expect.any(String) });
    expect(listed).not.toHaveProperty('key');
    const bad = await browser.call('POST', '/account/api/keys', { body: { mode: 'gold', extra: 1 }, csrf: true });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(['extra', 'mode']);

    const stranger = await service.createKey({ plan: 'professional', mode: 'live' });
    const strangerKey = (await service.request('GET', '/api/keys', { key: stranger.key })).body.keys[0];
    const foreign = await browser.call('DELETE', `/account/api/keys/${strangerKey.id}`, { csrf: true });
    expect(foreign.status).toBe(404);
    expect((await service.request('GET', '/api/signals', { key: stranger.key })).status).toBe(200);
  });

  it('shows 30 UTC days of calls, today last, without counting its own calls', async () => {
    const owner = await accountWithPassword(service, 'usage@example.com', password, 'analyst');
    const browser = new DashboardClient(service);
    await browser.signIn('usage@example.com', password);
    const live = (await browser.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true })).body;
    const sandbox = (await browser.call('POST', '/account/api/keys', { body: { mode: 'sandbox' }, csrf: true })).body;
    await service.request('GET', '/api/signals', { key: live.key });
    await service.request('GET', '/api/signals', { key: live.key });
    await service.request('GET', '/api/signals', { key: sandbox.key });
    for (let call = 0; call < 3; call += 1) await browser.call('GET', '/account/api/keys');

    const utcToday = () => new Date().toISOString().slice(0, 10);
    const before = utcToday();
    const usage = await browser.call('GET', '/account/api/usage');
    const after = utcToday();
    expect(usage.status).toBe(200);
    const dates: string[] = usage.body.days.map((day: { date: string }) => day.date);
    expect(dates).toHaveLength(30);
    expect([before, after]).toContain(dates.at(-1));
    dates.slice(1).forEach((date, index) => expect(Date.parse(date) - Date.parse(dates[index]!)).toBe(86_400_000));
    expect(usage.body.days.at(-1)).toEqual({ date: dates.at(-1), live: 2, sandbox: 1 });
    expect(usage.body.days.slice(0, -1).every((day: { live: number }) => day.live === 0)).toBe(true);
    expect(usage.body.today).toMatchObject({ mode: 'live', plan: 'analyst', calls: 2, allowance: 1000 });
    const rows = await service.databases.live.prisma.usageCounter.findMany({ where: { accountId: owner.id } });
    expect(rows.reduce((sum, row) => sum + row.calls, 0)).toBe(3);
  });

  it('lists webhook endpoints with their latest deliveries on the plan that has webhooks, and says which plan otherwise', async () => {
    const browser = new DashboardClient(service);
    await browser.signIn(email, password);
    expect((await browser.call('GET', '/account/api/webhooks')).body).toEqual({
      available: false,
      plan_required: 'institutional',
      endpoints: [],
    });

    const rich = await accountWithPassword(service, 'hooks@example.com', password, 'institutional');
    const control = service.databases.live.prisma;
    const endpoint = await control.webhookEndpoint.create({
      data: { accountId: rich.id, url: 'https://hooks.example.com/in', events: ['signal.created'], secret: 'whsec_x' },
    });
    for (let index = 0; index < 7; index += 1) {
      await control.webhookEvent.create({
        data: {
          id: `msg_${index}`,
          type: 'signal.created',
          body: '{}',
          createdAt: new Date(Date.UTC(2026, 0, 1, index)),
        },
      });
      await control.webhookDelivery.create({
        data: {
          eventId: `msg_${index}`,
          endpointId: endpoint.id,
          status: index === 6 ? 'failed' : 'delivered',
          attempts: 1,
          lastStatusCode: index === 6 ? 500 : 200,
          createdAt: new Date(Date.UTC(2026, 0, 1, index)),
        },
      });
    }
    const owner = new DashboardClient(service);
    await owner.signIn('hooks@example.com', password);
    const webhooks = (await owner.call('GET', '/account/api/webhooks')).body;
    expect(webhooks.available).toBe(true);
    expect(webhooks.endpoints).toHaveLength(1);
    expect(webhooks.endpoints[0]).toMatchObject({
      id: `wh_${endpoint.id}`,
      url: 'https://hooks.example.com/in',
      events: ['signal.created'],
      enabled: true,
    });
    const deliveries = webhooks.endpoints[0].recent_deliveries;
    expect(deliveries).toHaveLength(5);
    expect(deliveries[0]).toMatchObject({ event_type: 'signal.created', status: 'failed', response_code: 500 });
    expect(deliveries[0].id).toMatch(/^whd_\d+$/);
    expect(deliveries.map((delivery: { created_at: string }) => delivery.created_at)).toEqual(
      [6, 5, 4, 3, 2].map((hour) => new Date(Date.UTC(2026, 0, 1, hour)).toISOString()),
    );
  });
});
