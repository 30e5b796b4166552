/**
 * The API reference at /docs in a real browser (Debian's Chromium through playwright-core): Swagger UI and the
 * OpenAPI document come from this service, a sandbox key entered under "Authorize" makes a "Try it out" call
 * that the service answers, and nothing is requested from anywhere else. Without Chromium this file fails.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserTest } from '../support/browser-test.ts';
import type { BrowserTest } from '../support/browser-test.ts';
import { watchPage } from '../support/chromium.ts';
import type { TestService } from '../support/service.ts';

const SUMMARY = 'Acme Robotics files an 8-K announcing a new robotics plant.';

let world: BrowserTest;
let service: TestService;
let browser: Browser;
let key: string;

beforeAll(async () => {
  world = await startBrowserTest((started) =>
    started.databases.sandbox.prisma.signal.create({
      data: {
        ticker: 'ACME',
        companyName: 'Acme Robotics',
        signalType: 'sec_filing',
        filingType: '8-K',
        aiSummary: SUMMARY,
        materialityScore: 72,
        sentiment: 'BULLISH',
        urgent: false,
        sourceUrl: 'https://www.sec.gov/Archives/edgar/data/1/acme-8k.htm',
        sourceKey: 'docs-test-acme-8k',
        createdAt: new Date(),
      },
    }),
  );
  ({ service, browser, key } = world);
});
afterAll(() => world?.stop());

describe('the API reference at GET /docs', () => {
  it('authorizes with a key and runs "Try it out" against the service, loading nothing from elsewhere', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const { requests, problems } = watchPage(page);
    page.on('response', (response) => {
      if (response.status() >= 400) {
        problems.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
      }
    });

    const response = await page.goto(`${service.url}/docs`);
    expect(response?.status()).toBe(200);
    const operation = page.locator('.opblock-get', { has: page.locator('[data-path="/api/signals"]') });
    await operation.waitFor({ timeout: 30_000 });

    await page.locator('.auth-wrapper .authorize').click();
    const scheme = page.locator('.auth-container', { hasText: 'bearer' });
    await scheme.getByLabel('Value').fill(key);
    await scheme.getByRole('button', { name: 'Apply credentials' }).click();
    await scheme.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await page.locator('.dialog-ux .close-modal').click();

    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('tr[data-param-name="ticker"] input').fill('ACME');
    await operation.getByRole('button', { name: 'Execute' }).click();

    const live = operation.locator('.live-responses-table tr.response');
    await expect.poll(() => live.locator('.response-col_status').innerText(), { timeout: 20_000 }).toBe('200');
    const body = JSON.parse(await live.locator('.response-col_description pre').first().innerText());
    expect(body).toMatchObject({ total: 1, signals: [{ ticker: 'ACME', signal_type: 'sec_filing' }] });
    expect(body.signals[0].ai_summary).toBe(SUMMARY);
    await page.screenshot({ path: '/tmp/docs.png', fullPage: false });

    // The key lives in the page's memory only (persistAuthorization: false).
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage, ...sessionStorage })');
    expect(stored).not.toContain(key);

    const elsewhere = requests.filter((url) => new URL(url).origin !== service.url);
    expect(elsewhere).toEqual([]);
    const paths = requests.map((url) => new URL(url).pathname);
    expect(paths).toContain('/openapi.json');
    expect(paths.some((path) => /^\/docs\/assets\/[^/]+\/swagger-ui-bundle\.js$/.test(path))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000); // a 1.7 MB script on a busy machine.
});

describe('the API reference over HTTP', () => {
  it('sends the page without a key, with a Content-Security-Policy and no inline script', async () => {
    const page = await service.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    const scripts = [...page.text.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!);
    expect(scripts.length).toBe(2);
    for (const attributes of scripts) expect(attributes).toMatch(/ src="\/docs\/assets\//);
  });

  it('serves the allowed files with their types and long cache headers, and 404 for anything else', async () => {
    const html = (await service.request('GET', '/docs')).text;
    const files = [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(files.map((file) => file.split('/').pop())).toEqual(
      expect.arrayContaining([
        'swagger-ui.css',
        'swagger-ui-bundle.js',
        'LICENSE',
        'NOTICE',
        'swagger-ui-bundle.js.LICENSE.txt',
        expect.stringMatching(/^reference\.[0-9a-f]{12}\.js$/),
        expect.stringMatching(/^reference\.[0-9a-f]{12}\.css$/),
      ]),
    );
    for (const file of files) {
      const asset = await service.request('GET', file, { headers: { 'accept-encoding': 'gzip' } });
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type'), file).toMatch(/^text\/(javascript|css|plain); charset=utf-8$/);
    }
    const init = files.find((file) => file.endsWith('.js') && file.includes('/reference.'))!;
    expect((await service.request('GET', init)).text).toContain('"validatorUrl":null');
    expect(
      (
        await service.request(
          'GET',
          files.find((file) => file.endsWith('/LICENSE'))!,
        )
      ).text,
    ).toContain('Apache License');

    const base = files[0]!.slice(0, files[0]!.lastIndexOf('/'));
    const missing = await service.request('GET', `${base}/package.json`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not_found' });
  });
});
