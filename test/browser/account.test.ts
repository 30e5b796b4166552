/**
 * The account dashboard in a real browser (Debian's Chromium through playwright-core), against the whole service
 * over HTTP: sign in, create a key and read it from the page (once), call the API with it, see the call in the
 * usage chart, revoke it, and see the same call refused. Part of the default suite, like graphiql.test.ts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserTest } from '../support/browser-test.ts';
import type { BrowserTest } from '../support/browser-test.ts';
import { watchPage } from '../support/chromium.ts';
import type { TestService } from '../support/service.ts';
import { accountWithPassword } from '../account/dashboard-client.ts';

const EMAIL = 'analyst@example.com';
const PASSWORD = 'correct horse battery staple';

let world: BrowserTest;
let service: TestService;
let browser: Browser;

beforeAll(async () => {
  world = await startBrowserTest((started) => accountWithPassword(started, EMAIL, PASSWORD, 'analyst'));
  ({ service, browser } = world);
});
afterAll(() => world?.stop());

/** The API as any client calls it: real HTTP with the key as a bearer credential, not through the page. */
const callApi = (key: string) =>
  fetch(`${service.url}/api/signals?limit=1`, { headers: { authorization: `Bearer ${key}` } });

describe('the account dashboard at /account', () => {
  it('signs in, makes a key shown once, sees its call in the usage chart, revokes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
    const page = await context.newPage();
    const { requests, problems } = watchPage(page);

    expect((await page.goto(`${service.url}/account`))?.status()).toBe(200);
    const signIn = page.locator('#sign-in');
    await signIn.getByLabel('E-mail').fill(EMAIL);
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#plan-facts').innerText()).toContain(EMAIL);
    expect(await page.locator('#plan-facts').innerText()).toMatch(/Plan\s+analyst/);

    // The key: once, on the page that made it, with a copy button that copies exactly it.
    await page.locator('#create-key').getByLabel('Name').fill('browser test');
    await page.locator('#create-key').getByLabel('Mode').selectOption('live');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('#new-key-value');
    await expect.poll(() => shown.innerText()).toMatch(/^sk_live_[\w-]{43}$/);
    const key = await shown.innerText();
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(key);
    const row = page.locator('#key-table tbody tr', { hasText: 'browser test' });
    expect(await row.innerText()).toContain(key.slice(0, 12));
    expect(await row.innerText()).not.toContain(key);

    // A call with the key over HTTP, then the chart after a reload: today's bar has it, and the key is gone.
    expect((await callApi(key)).status).toBe(200);
    await page.reload();
    const today = page.locator('#usage-chart g.day').last();
    await expect.poll(() => today.getAttribute('data-live')).toBe('1');
    expect(await page.locator('#usage-chart g.day').count()).toBe(30);
    expect(await today.locator('rect.live').getAttribute('height')).not.toBe('0');
    expect(await page.locator('#usage-today').innerText()).toContain('Today: 1 live call of 1,000 included');
    expect(await page.locator('#new-key').isHidden()).toBe(true);
    expect(await page.content()).not.toContain(key);
    expect(await row.locator('.last-used').innerText()).not.toBe('never');

    // Revoke (a second click confirms), and the same call is refused.
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke browser test' }).click();
    await expect.poll(() => row.locator('.key-status').innerText()).toMatch(/^revoked/);
    const refused = await callApi(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'unauthorized' });

    await page.screenshot({ path: '/tmp/account.png', fullPage: true });
    expect(requests.filter((url) => new URL(url).host !== new URL(service.url).host)).toEqual([]);
    expect(problems).toEqual([]);

    // Signing out ends the session in this browser: a reload shows the sign-in form again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => signIn.isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => signIn.isVisible()).toBe(true);
    expect(await page.locator('#signed-in').isHidden()).toBe(true);
    await context.close();
  }, 120_000);
});
