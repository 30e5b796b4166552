import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../gateway/auth/passwords.ts';
import { DAILY_ALLOWANCE, PLANS, REQUESTS_PER_MINUTE } from '../../subgraphs/platform/plans.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DashboardClient } from './dashboard-client.ts';

/** Sign-up (SIGNUP=open, closed by default), the plans page every 403 points to, the dashboard's page and files. */
let closed: TestService;
let open: TestService;

beforeAll(async () => {
  [closed, open] = await Promise.all([
    startTestService({ sandboxScale: 0 }),
    startTestService({ sandboxScale: 0, server: { signup: 'open' } }),
  ]);
});
afterAll(() => Promise.all([closed?.stop(), open?.stop()]));

describe('sign-up', () => {
  it('is closed by default: a clear 403 before anything else is looked at, and no account', async () => {
    const browser = new DashboardClient(closed);
    expect((await browser.open()).body.signup).toBe('closed');
    const refused = await closed.request('POST', '/account/api/signup', {
      body: { email: 'new@example.com', password: 'long enough password' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'signup_closed', message: expect.stringContaining('admin') });
    expect(await closed.databases.live.prisma.account.count({ where: { email: 'new@example.com' } })).toBe(0);
  });

  it('when open, makes an account on the lowest plan, hashed as the admin command does, and signs it in', async () => {
    const browser = new DashboardClient(open);
    expect((await browser.open()).body.signup).toBe('open');
    const short = await browser.call('POST', '/account/api/signup', {
      body: { email: 'new@example.com', password: 'short' },
      csrf: true,
    });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual({ password: 'must be at least 8 characters' });
    const noToken = await browser.call('POST', '/account/api/signup', {
      body: { email: 'new@example.com', password: 'long enough password' },
    });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toBe('csrf_token_invalid');

    const created = await browser.call('POST', '/account/api/signup', {
      body: { email: ' New@Example.com ', password: 'long enough password' },
      csrf: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.account).toEqual({ id: expect.any(String), email: 'new@example.com', plan: PLANS[0] });
    expect(browser.cookies.has('__Host-session')).toBe(true);
    expect((await browser.call('GET', '/account/api/session')).body.account.email).toBe('new@example.com');

    const row = await open.databases.live.prisma.account.findUniqueOrThrow({ where: { email: 'new@example.com' } });
    expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('long enough password', row.passwordHash)).toBe(true);
    const login = await open.request('POST', '/api/auth/login', {
      body: { email: 'new@example.com', password: 'long enough password' },
    });
    expect(login.status).toBe(200);
  });

  it('refuses an address that has an account, and throttles attempts on one address like logins', async () => {
    const browser = new DashboardClient(open);
    await browser.open();
    const attempt = () =>
      browser.call('POST', '/account/api/signup', {
        body: { email: 'taken@example.com', password: 'long enough password' },
        csrf: true,
      });
    expect((await attempt()).status).toBe(201);
    // Signed up is signed in: the new session takes a new CSRF token (they are bound to their session).
    await browser.open();
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1) statuses.push((await attempt()).status);
    // Ten attempts per address and IP a minute (gateway/auth/login-throttle.ts): the eleventh waits.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(409));
    const throttled = await attempt();
    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toBe('rate_limited');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await open.databases.live.prisma.account.count({ where: { email: 'taken@example.com' } })).toBe(1);
  });
});

describe('GET /billing', () => {
  it('lists every plan with the plan table’s numbers and says how to upgrade, without a credential', async () => {
    const page = await closed.request('GET', '/billing');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).not.toContain('<script');
    for (const plan of PLANS) {
      expect(page.text).toContain(`<th scope="col">${plan}</th>`);
      expect(page.text).toContain(`${REQUESTS_PER_MINUTE[plan].toLocaleString('en')} requests a minute`);
      expect(page.text).toContain(`<td>${DAILY_ALLOWANCE[plan].toLocaleString('en')}</td>`);
    }
    expect(page.text).toContain('Webhooks');
    expect(page.text).toContain('no payment provider');
    expect(page.text).toContain('admin -- set-plan');
  });

  it('is where a 403 sends the client', async () => {
    const { key } = await closed.createKey({ plan: 'analyst', mode: 'live' });
    const refused = await closed.request('GET', '/api/enrich/AAPL', { key });
    expect(refused.status).toBe(403);
    expect((await closed.request('GET', refused.body.redirect)).status).toBe(200);
  });
});

describe('GET /account', () => {
  it('serves the page with a strict CSP and its two files from this service, cached by version', async () => {
    const page = await closed.request('GET', '/account');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(page.text).not.toMatch(/<script>|style=/);
    const files = [...page.text.matchAll(/(?:href|src)="(\/account\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const response = await closed.request('GET', file);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')).toMatch(file.endsWith('.js') ? /javascript/ : /text\/css/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const base = files[0]!.slice(0, files[0]!.lastIndexOf('/'));
    expect((await closed.request('GET', `${base}/page.ts`)).status).toBe(404);
    // The dashboard's API is known to the 404/405 handler like every other route.
    const wrongMethod = await closed.request('PUT', '/account/api/keys');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
  });
});
