/**
 * GraphiQL in a real browser (Debian's Chromium through playwright-core): the page, its assets and Monaco's
 * workers all come from this service, and a query typed into it with a key in the header editor is answered.
 * Part of the default suite; CI installs Chromium (.ci/run). Without it this file fails, on purpose.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

const CHROMIUM = '/usr/bin/chromium';
const QUERY = '{ companies { pageInfo { total } } }';

let service: TestService;
let browser: Browser;
let key: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (.ci/run does).`,
    );
  }
  service = await startTestService({ sandboxScale: 0 });
  ({ key } = await service.createKey({ mode: 'sandbox' }));
  await service.databases.sandbox.prisma.company.create({
    data: {
      name: 'Acme Robotics',
      industry: 'software',
      industryName: 'Software',
      revenueUsd: 12_000_000,
      employees: 80,
      state: 'CA',
      city: 'San Jose',
      website: 'https://acme.example',
      foundedYear: 2011,
      aiScore: 91,
      decisionMaker: 'Ada Park',
      decisionMakerTitle: 'CEO',
      decisionMakerEmail: 'ada@acme.example',
    },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Replaces an editor's whole text; insertText types it as one input, so Monaco adds no closing brackets. */
async function replaceEditorText(page: Page, editor: Locator, text: string) {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

describe('GraphiQL at GET /graphql', () => {
  it('runs a query with the key from the header editor, loading nothing from elsewhere', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // CSP violations are reported on the console; failed loads are checked by status below.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('response', (response) => {
      if (response.status() < 400) return;
      const { pathname } = new URL(response.url());
      // Before the key is in the header editor, GraphiQL's schema request is refused: that is the point.
      if (response.status() === 401 && pathname === '/graphql') return;
      problems.push(`${response.status()} ${response.request().method()} ${pathname}`);
    });

    const response = await page.goto(`${service.url}/graphql`);
    expect(response?.status()).toBe(200);
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Headers' }).click();
    const headers = page.getByRole('region', { name: 'Headers' }).getByRole('code');
    // Monaco renders spaces as no-break spaces, which \s matches.
    await expect.poll(() => headers.innerText()).toMatch(/"Authorization":\s"Bearer\s<your\skey>"/);
    await replaceEditorText(page, headers, JSON.stringify({ Authorization: `Bearer ${key}` }));
    await replaceEditorText(page, page.locator('.graphiql-query-editor .monaco-editor'), QUERY);
    await page.locator('.graphiql-execute-button').click();

    const result = page.locator('.graphiql-response');
    await expect.poll(() => result.innerText(), { timeout: 20_000 }).toMatch(/"total":\s*1\b/);
    await page.screenshot({ path: '/tmp/graphiql.png' });

    const elsewhere = requests.filter((url) => new URL(url).hostname !== '127.0.0.1');
    expect(elsewhere).toEqual([]);
    // The workers are ours, under the versioned asset path.
    expect(requests.some((url) => /\/graphql\/assets\/[^/]+\/graphql\.worker\.js$/.test(url))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000); // a 5 MB script and three workers on a busy machine: the default 60 s is too tight.
});

describe('GraphiQL over HTTP', () => {
  it('sends the page with a Content-Security-Policy and without needing a key', async () => {
    const page = await service.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    const assets = [...page.text.matchAll(/(?:href|src)="(\/graphql\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBe(2);

    // The same path without a browser's Accept header is GraphQL over GET, which needs a key.
    const api = await service.request('GET', '/graphql?query=%7B__typename%7D');
    expect(api.status).toBe(401);
  });

  it('serves the assets with their content types and long cache headers, and 404 for anything else', async () => {
    const html = (await service.request('GET', '/graphql', { headers: { accept: 'text/html' } })).text;
    const base = /src="(\/graphql\/assets\/[^/]+)\/graphiql\.js"/.exec(html)![1]!;
    const expected = {
      'graphiql.js': 'text/javascript',
      'graphiql.css': 'text/css',
      'editor.worker.js': 'text/javascript',
      'graphql.worker.js': 'text/javascript',
      'json.worker.js': 'text/javascript',
    };
    for (const [name, type] of Object.entries(expected)) {
      const asset = await service.request('GET', `${base}/${name}`);
      expect(asset.status, name).toBe(200);
      expect(asset.headers.get('content-type'), name).toContain(type);
      expect(asset.headers.get('cache-control'), name).toBe('public, max-age=31536000, immutable');
      expect(asset.text.length, name).toBeGreaterThan(10_000);
    }
    const missing = await service.request('GET', `${base}/package.json`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not_found' });
  });
});
