import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DashboardClient, accountWithPassword } from './dashboard-client.ts';

/**
 * A session ends on the server when the user ends it (docs/security.md "Session tokens"): a copy of the cookie
 * taken before logout, or before a password change, opens nothing afterwards, and a CSRF token is good only
 * with the session it was handed to.
 */
const password = 'a long enough password';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
});
afterAll(() => service?.stop());

/** What a thief holds: the browser's cookies and CSRF token, replayed from elsewhere. */
function copyOf(browser: DashboardClient): DashboardClient {
  const copy = new DashboardClient(service);
  for (const [name, value] of browser.cookies) copy.cookies.set(name, value);
  copy.csrfToken = browser.csrfToken;
  return copy;
}

describe('ending a dashboard session', () => {
  it('refuses the old cookie after logout: it lists, creates and revokes nothing', async () => {
    const owner = await accountWithPassword(service, 'logout@example.com', password, 'professional');
    const browser = new DashboardClient(service);
    await browser.signIn('logout@example.com', password);
    const key = (await browser.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true })).body;
    const stolen = copyOf(browser);

    expect((await browser.call('POST', '/account/api/logout', { csrf: true })).status).toBe(204);

    const listed = await stolen.call('GET', '/account/api/keys');
    expect(listed.status, listed.text).toBe(401);
    expect(listed.body).toEqual({ error: 'unauthorized', message: expect.stringContaining('has ended') });
    expect((await stolen.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true })).status).toBe(401);
    expect((await stolen.call('DELETE', `/account/api/keys/${key.id}`, { csrf: true })).status).toBe(401);
    expect((await stolen.call('GET', '/account/api/session')).body.account).toBeNull();
    expect(await service.databases.live.prisma.apiKey.count({ where: { accountId: owner.id } })).toBe(1);
    expect((await service.request('GET', '/api/signals', { key: key.key })).status).toBe(200);
  });

  it('ends only the session that logged out', async () => {
    await accountWithPassword(service, 'two-browsers@example.com', password, 'analyst');
    const laptop = new DashboardClient(service);
    const phone = new DashboardClient(service);
    await laptop.signIn('two-browsers@example.com', password);
    await phone.signIn('two-browsers@example.com', password);
    await laptop.call('POST', '/account/api/logout', { csrf: true });
    expect((await phone.call('GET', '/account/api/keys')).status).toBe(200);
  });

  it('ends every session of the account, dashboard and API token, when its password changes', async () => {
    const owner = await accountWithPassword(service, 'rotate@example.com', password, 'professional');
    const browser = new DashboardClient(service);
    await browser.signIn('rotate@example.com', password);
    const api = await service.request('POST', '/api/auth/login', { body: { email: 'rotate@example.com', password } });
    expect((await service.request('GET', '/api/keys', { key: api.body.token })).status).toBe(200);

    // As any writer would change it (a hand-written UPDATE included): the database ends the sessions.
    await service.databases.live.prisma.account.update({
      where: { id: owner.id },
      data: { passwordHash: await hashPassword('another long password') },
    });
    expect((await browser.call('GET', '/account/api/keys')).status).toBe(401);
    expect((await service.request('GET', '/api/keys', { key: api.body.token })).status).toBe(401);
    await browser.signIn('rotate@example.com', 'another long password');
    expect((await browser.call('GET', '/account/api/keys')).status).toBe(200);
  });
});

describe('the CSRF token is bound to its session', () => {
  it('refuses a token of one session with another session’s cookie, and asks for a new one after sign-in', async () => {
    const victim = await accountWithPassword(service, 'victim@example.com', password, 'professional');
    await accountWithPassword(service, 'attacker@example.com', password, 'professional');
    const attacker = new DashboardClient(service);
    await attacker.signIn('attacker@example.com', password);
    const browser = new DashboardClient(service);
    await browser.signIn('victim@example.com', password);

    // The attacker's own secret cookie and token, with the victim's session cookie planted beside them.
    const mixed = copyOf(attacker);
    mixed.cookies.set('__Host-session', browser.cookies.get('__Host-session')!);
    const forged = await mixed.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true });
    expect(forged.status, forged.text).toBe(403);
    expect(forged.body.error).toBe('csrf_token_invalid');
    expect(await service.databases.live.prisma.apiKey.count({ where: { accountId: victim.id } })).toBe(0);

    // The token handed out before sign-in belonged to no session: the page fetches a new one, as dashboard.js does.
    const fresh = new DashboardClient(service);
    await fresh.open();
    const login = await fresh.call('POST', '/account/api/login', {
      body: { email: 'victim@example.com', password },
      csrf: true,
    });
    expect(login.status).toBe(200);
    expect((await fresh.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true })).status).toBe(403);
    await fresh.open();
    expect((await fresh.call('POST', '/account/api/keys', { body: { mode: 'live' }, csrf: true })).status).toBe(201);
  });
});
