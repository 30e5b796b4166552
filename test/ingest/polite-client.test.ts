import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { USER_AGENT, failureOf, removeStores, testClient } from './polite-client-support.ts';

const REAL = 'test/fixtures/real';
const TICKERS = `${REAL}/sec_edgar/company_tickers.json`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>503 Service Temporarily Unavailable</title></head><body>down</body></html>';
const JSON_BODY = JSON.stringify(Array.from({ length: 400 }, (_, index) => ({ ticker: `T${index}`, cik: index })));

/** Outcomes of the client against a real server: files, 304s, and each way a body can be garbage. */
describe('the polite HTTP client: outcomes', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    server = await startFixtureServer({
      '/files/company_tickers.json': { file: TICKERS },
      '/files/form4.xml': { file: `${REAL}/sec_edgar/form4.snow.xml` },
      '/files/form.idx': { file: `${REAL}/sec_edgar/form.20200318.idx` },
      '/files/members.yaml': { file: `${REAL}/congress_members/legislators-current.yaml` },
      // Last-Modified alone, as a plain static server without ETags answers.
      '/files/CPIAUCSL.csv': {
        file: `${REAL}/fred/CPIAUCSL.csv`,
        etag: false,
        lastModified: new Date('2026-11-02T13:30:00Z'),
      },
      '/files/compressed.json': { body: JSON_BODY, gzip: true },
      '/moved.json': { redirect: '/files/company_tickers.json' },
      ...Object.fromEntries(Array.from({ length: 7 }, (_, hop) => [`/hop-${hop}`, { redirect: `/hop-${hop + 1}` }])),
      '/error-page.json': { body: HTML_PAGE, contentType: 'text/html; charset=utf-8' },
      '/error-page-as-csv.csv': { body: HTML_PAGE, contentType: 'text/csv' },
      '/xhtml-page.xml': {
        body: '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">\n<html><head><title>Sign in</title></head></html>',
        contentType: 'application/xml',
      },
      '/not-xml.xml': { body: 'Access denied\n', contentType: 'application/xml' },
      '/empty.csv': { body: '', contentType: 'text/csv' },
      '/incomplete.json': { body: JSON_BODY.slice(0, 5000), contentType: 'application/json' },
      '/cut.json': { body: JSON_BODY, contentType: 'application/json', cutAfter: 4000 },
      '/slow.csv': { body: 'a,b\n'.repeat(100), contentType: 'text/csv', trickle: { bytes: 8, everyMs: 50 } },
      '/big.csv': { body: 'a,b\n'.repeat(2000), contentType: 'text/csv' },
      '/server-error.json': { body: 'oops', status: 500 },
    });
  });
  afterAll(async () => {
    await server?.close();
    await removeStores();
  });

  it('stores a file under the sha256 of its bytes, with its validators, sending the User-Agent', async () => {
    const { client, storeDir, files } = await testClient();
    const outcome = await client.fetchFile({ url: server.url('/files/company_tickers.json'), expect: 'json' });
    const bytes = await readFile(TICKERS);
    expect(outcome).toMatchObject({
      status: 'fetched',
      httpStatus: 200,
      url: server.url('/files/company_tickers.json'),
      path: join(storeDir, `${sha256(bytes)}.json`),
      sha256: sha256(bytes),
      bytes: bytes.length,
      contentType: 'application/json',
      attempts: 1,
    });
    if (outcome.status !== 'fetched') throw new Error('not fetched');
    expect(outcome.validators.etag).toMatch(/^".+"$/);
    expect(outcome.validators.lastModified).toBe(statSync(TICKERS).mtime.toUTCString());
    expect((await readFile(outcome.path)).equals(bytes)).toBe(true);
    expect(await files()).toEqual([`${sha256(bytes)}.json`]);
    const [request] = server.requestsTo('/files/company_tickers.json');
    expect(request!.headers['user-agent']).toBe(USER_AGENT);
    expect(request!.headers['accept-encoding']).toMatch(/gzip/);
    expect(request!.headers['if-none-match']).toBeUndefined();
  });

  it('answers "unchanged" to a 304 for the same ETag, and writes nothing', async () => {
    const { client, files } = await testClient();
    const first = await client.fetchFile({ url: server.url('/files/company_tickers.json'), expect: 'json' });
    if (first.status !== 'fetched') throw new Error('not fetched');
    const before = await files();
    const second = await client.fetchFile({
      url: server.url('/files/company_tickers.json'),
      expect: 'json',
      previous: first.validators,
    });
    expect(second).toEqual({
      status: 'unchanged',
      httpStatus: 304,
      url: server.url('/files/company_tickers.json'),
      attempts: 1,
    });
    expect(await files()).toEqual(before);
    const conditional = server.requestsTo('/files/company_tickers.json').at(-1)!;
    expect(conditional).toMatchObject({ status: 304, completed: true });
    expect(conditional.headers['if-none-match']).toBe(first.validators.etag);
  });

  it('uses Last-Modified when the server gives no ETag, and fetches again when the file changed', async () => {
    const path = '/files/CPIAUCSL.csv';
    const { client, files } = await testClient();
    const first = await client.fetchFile({ url: server.url(path), expect: 'csv' });
    expect(first).toMatchObject({ status: 'fetched', validators: { lastModified: 'Mon, 02 Nov 2026 13:30:00 GMT' } });
    if (first.status !== 'fetched') throw new Error('not fetched');
    expect(first.validators.etag).toBeUndefined();
    const second = await client.fetchFile({ url: server.url(path), expect: 'csv', previous: first.validators });
    expect(second.status).toBe('unchanged');
    expect(server.requestsTo(path).at(-1)!.headers['if-modified-since']).toBe('Mon, 02 Nov 2026 13:30:00 GMT');

    server.routes[path] = { body: 'DATE,CPIAUCSL\n2026-10-01,330.1\n', lastModified: new Date('2026-11-20T13:30:00Z') };
    const third = await client.fetchFile({ url: server.url(path), expect: 'csv', previous: first.validators });
    expect(third).toMatchObject({ status: 'fetched', validators: { lastModified: 'Fri, 20 Nov 2026 13:30:00 GMT' } });
    expect((await files()).sort()).toHaveLength(2);
  });

  it('accepts the real XML, YAML and EDGAR index files, and decodes a gzip body before storing it', async () => {
    const { client } = await testClient();
    for (const [path, expected] of [
      ['/files/form4.xml', 'xml'],
      ['/files/members.yaml', 'yaml'],
      ['/files/form.idx', 'text'],
    ] as const) {
      const outcome = await client.fetchFile({ url: server.url(path), expect: expected });
      expect(outcome, path).toMatchObject({ status: 'fetched' });
      if (outcome.status === 'fetched')
        expect(outcome.path.endsWith(expected === 'text' ? '.txt' : `.${expected}`)).toBe(true);
    }
    const compressed = await client.fetchFile({ url: server.url('/files/compressed.json'), expect: 'json' });
    if (compressed.status !== 'fetched') throw new Error('not fetched');
    expect(await readFile(compressed.path, 'utf8')).toBe(JSON_BODY);
    expect(compressed.sha256).toBe(sha256(Buffer.from(JSON_BODY)));
    expect(compressed.bytes).toBe(Buffer.byteLength(JSON_BODY));
  });

  it('follows redirects, at most five', async () => {
    const { client, files } = await testClient();
    const moved = await client.fetchFile({ url: server.url('/moved.json'), expect: 'json' });
    expect(moved).toMatchObject({
      status: 'fetched',
      url: server.url('/moved.json'),
      finalUrl: server.url('/files/company_tickers.json'),
    });
    const before = (await files()).length;
    const failure = await failureOf(client, { url: server.url('/hop-0'), expect: 'json' });
    expect(failure).toMatchObject({ code: 'http_status', httpStatus: 302, url: server.url('/hop-0') });
    expect(failure.message).toMatch(/more than 5 redirects/);
    // The first request and five redirects followed; the sixth redirect is refused, not followed.
    expect(server.requests.filter((request) => request.path.startsWith('/hop-')).map((r) => r.path)).toEqual(
      Array.from({ length: 6 }, (_, hop) => `/hop-${hop}`),
    );
    expect(await files()).toHaveLength(before);
  });

  it.each([
    ['/error-page.json', 'json', 'wrong_format', /an HTML page \(text\/html; charset=utf-8\) where JSON was expected/],
    ['/error-page-as-csv.csv', 'csv', 'wrong_format', /an HTML page where CSV was expected: "503 Service Temporarily/],
    ['/xhtml-page.xml', 'xml', 'wrong_format', /an HTML page where XML was expected: "Sign in"/],
    ['/not-xml.xml', 'xml', 'wrong_format', /not XML: the body starts with "Access denied"/],
    ['/empty.csv', 'csv', 'wrong_format', /an empty body where CSV was expected/],
    ['/incomplete.json', 'json', 'truncated', /incomplete JSON: 5000 bytes that end with .*, not "\]"/],
    ['/cut.json', 'json', 'truncated', /the body was cut off after \d+ bytes of the \d+ announced/],
    ['/server-error.json', 'json', 'http_status', /^HTTP 500 Internal Server Error$/],
    ['/nowhere.json', 'json', 'http_status', /^HTTP 404 Not Found$/],
  ] as const)('fails %s as %s → %s, leaving no file', async (path, expected, code, message) => {
    const { client, files } = await testClient();
    const failure = await failureOf(client, { url: server.url(path), expect: expected });
    expect(failure).toMatchObject({ code, url: server.url(path) });
    expect(failure.message).toMatch(message);
    expect(failure.message).not.toMatch(/\n/);
    expect(await files()).toEqual([]);
    // Not retried: only 429, 503 and network errors are.
    expect(server.requestsTo(path)).toHaveLength(1);
  });

  it('gives up on a body slower than the timeout', async () => {
    const { client, files } = await testClient({ timeoutMs: 400 });
    const failure = await failureOf(client, { url: server.url('/slow.csv'), expect: 'csv' });
    expect(failure).toMatchObject({ code: 'timeout', httpStatus: 200, message: 'no complete answer within 400 ms' });
    expect(await files()).toEqual([]);
    await expect.poll(() => server.requestsTo('/slow.csv')[0]!.completed).toBe(false);
  });

  it('refuses a body announced over the size cap without reading it', async () => {
    const { client, files } = await testClient({ maxBytes: 1000 });
    const failure = await failureOf(client, { url: server.url('/big.csv'), expect: 'csv' });
    expect(failure).toMatchObject({ code: 'too_large', httpStatus: 200 });
    expect(failure.message).toBe('a body of 8000 bytes, over the cap of 1000');
    expect(await files()).toEqual([]);
  });

  it("fetches from a fixture server serving a folder under the sources' own paths", async () => {
    const mirror = await startFixtureServer({}, { root: REAL });
    try {
      const { client } = await testClient();
      const outcome = await client.fetchFile({ url: mirror.url('/fred/UNRATE.csv'), expect: 'csv' });
      expect(outcome).toMatchObject({ status: 'fetched', sha256: sha256(await readFile(`${REAL}/fred/UNRATE.csv`)) });
      if (outcome.status !== 'fetched') throw new Error('not fetched');
      expect(
        await client.fetchFile({ url: mirror.url('/fred/UNRATE.csv'), expect: 'csv', previous: outcome.validators }),
      ).toMatchObject({ status: 'unchanged' });
      expect((await failureOf(client, { url: mirror.url('/fred/NOSUCH.csv'), expect: 'csv' })).httpStatus).toBe(404);
    } finally {
      await mirror.close();
    }
  });

  it('sent the configured User-Agent on every request of this file', () => {
    expect(server.requests.length).toBeGreaterThan(20);
    expect(new Set(server.requests.map((request) => request.headers['user-agent']))).toEqual(new Set([USER_AGENT]));
  });
});
