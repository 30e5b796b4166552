/**
 * GraphiQL in a real browser (Debian's Chromium through playwright-core): the page, its assets and Monaco's
 * workers all come from this service; it opens without a key (help text, anonymous schema), reloads the schema when
 * a key is put in the header editor, and answers a query with it.
 * Part of the default suite; CI installs Chromium (.ci/run). Without it this file fails, on purpose.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserTest } from '../support/browser-test.ts';
import type { BrowserTest } from '../support/browser-test.ts';
import { watchPage } from '../support/chromium.ts';
import type { TestService } from '../support/service.ts';

const QUERY = '{ companies { pageInfo { total } } }';

let world: BrowserTest;
let service: TestService;
let browser: Browser;
let key: string;

beforeAll(async () => {
  world = await startBrowserTest((started) =>
    started.databases.sandbox.prisma.company.create({
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
    }),
  );
  ({ service, browser, key } = world);
});
afterAll(() => world?.stop());

/** Replaces an editor's whole text; insertText types it as one input, so Monaco adds no closing brackets. */
async function replaceEditorText(page: Page, editor: Locator, text: string) {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** The introspection requests GraphiQL sent, with the credential each carried (none: anonymous). */
interface Introspection {
  authorization: string | undefined;
  status: number;
}

describe('GraphiQL at GET /graphql', () => {
  it('opens with help and a Bearer header to fill in, without an error; reloads the schema with the key; runs a query', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const { requests, problems } = watchPage(page);
    const introspections: Introspection[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if ((request.postData() ?? '').includes('__schema')) {
        introspections.push({ authorization: request.headers().authorization, status: response.status() });
      }
      // No refusal at all, the first schema request (before any key) included.
      if (response.status() >= 400) {
        problems.push(`${response.status()} ${request.method()} ${new URL(response.url()).pathname}`);
      }
    });

    const response = await page.goto(`${service.url}/graphql`);
    expect(response?.status()).toBe(200);
    const queryEditor = page.locator('.graphiql-query-editor .monaco-editor');
    await queryEditor.waitFor({ timeout: 30_000 });
    // The help text, whose query answers without a key.
    await expect.poll(() => queryEditor.innerText()).toMatch(/put\s+your\s+API\s+key\s+after\s+"Bearer\s"/);
    // The schema was fetched as an anonymous caller and answered.
    await expect.poll(() => introspections.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(introspections[0]).toEqual({ authorization: undefined, status: 200 });
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.graphiql-response');
    await expect.poll(() => result.innerText(), { timeout: 20_000 }).toMatch(/"membersTracked":\s*0\b/);

    await page.getByRole('button', { name: 'Headers' }).click();
    const headers = page.getByRole('region', { name: 'Headers' }).getByRole('code');
    // Monaco renders spaces as no-break spaces, which \s matches.
    await expect.poll(() => headers.innerText()).toMatch(/"Authorization":\s"Bearer\s"/);
    await replaceEditorText(page, headers, JSON.stringify({ Authorization: `Bearer ${key}` }));
    // Once the header editor is still, the schema is fetched again, with the key.
    await expect
      .poll(() => introspections.some((sent) => sent.authorization === `Bearer ${key}` && sent.status === 200), {
        timeout: 20_000,
      })
      .toBe(true);

    await replaceEditorText(page, queryEditor, QUERY);
    await page.locator('.graphiql-execute-button').click();
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

    // The same path without a browser's Accept header is GraphQL over GET: a key for anything but the public fields.
    const api = await service.request('GET', `/graphql?query=${encodeURIComponent('{ companies { nodes { id } } }')}`);
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
