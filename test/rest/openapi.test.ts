/**
 * /openapi.json against the running service: the document is valid OpenAPI 3.1, it lists every /api route the
 * server registered, and a real answer of every documented operation (success and the errors met on the way,
 * on the sandbox data) matches the schema the document gives for its status. With UPDATE_OPENAPI_EXAMPLES=1 the
 * answers become the document's examples (schema/openapi-examples.json); without it, every checked-in example
 * must still match its schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'csv-parse/sync';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import { EXAMPLES_FILE, exampleKey, trimmedExample, trimmedText } from '../../gateway/openapi/examples.ts';
import { startTestService } from '../support/service.ts';
import { Receiver, verifyEndpoint } from '../webhooks/receiver.ts';
import type { HttpResult, TestService } from '../support/service.ts';

const addFormats = formats as unknown as typeof formats.default;

let service: TestService;
let document: any;
let ajv: Ajv2020;
let sandboxKey: string;
let liveKey: string;
/** `GET /api/signals` → the statuses its real answers had. */
const exercised = new Map<string, Set<number>>();
const examples: Record<string, unknown> = {};

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The documented path of a concrete one: `/api/webhooks/wh_1` → `/api/webhooks/{id}`. */
function documentedPath(method: string, path: string): string {
  const bare = path.split('?')[0]!;
  const found = Object.keys(document.paths).find((candidate) => {
    if (!document.paths[candidate][method.toLowerCase()]) return false;
    const pattern = new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(bare);
  });
  if (!found) throw new Error(`${method} ${bare} is not in the document`);
  return found;
}

/** Checks a real answer against the document's schema for its status, and records it. */
function expectDocumented(method: string, path: string, result: HttpResult): void {
  const documented = documentedPath(method, path);
  const operation = document.paths[documented][method.toLowerCase()];
  let response = operation.responses[String(result.status)];
  expect(
    response,
    `${method} ${documented} answered ${result.status}, which it does not document: ${result.text}`,
  ).toBeDefined();
  let base = pointer('paths', documented, method.toLowerCase(), 'responses', String(result.status));
  if (response.$ref) {
    base = response.$ref.slice(2);
    response = document.components.responses[response.$ref.split('/').pop()];
  }
  const contentType = (result.headers.get('content-type') ?? '').split(';')[0]!;
  expect(Object.keys(response.content), `${method} ${documented}`).toContain(contentType);
  const validate = ajv.getSchema(`openapi.json#/${base}/content/${pointer(contentType)}/schema`)!;
  const body = contentType === 'application/json' ? result.body : result.text;
  expect(validate(body) ? [] : validate.errors, `${method} ${documented} ${result.status}`).toEqual([]);
  const key = `${method} ${documented}`;
  exercised.set(key, (exercised.get(key) ?? new Set()).add(result.status));
  if (result.status < 300) {
    examples[exampleKey(method, documented, contentType)] ??=
      contentType === 'application/json' ? trimmedExample(body) : trimmedText(result.text, contentType);
  }
}

async function call(method: string, path: string, options: { key?: string; body?: unknown } = {}) {
  const result = await service.request(method, path, { key: sandboxKey, ...options });
  expectDocumented(method, path, result);
  return result;
}

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 40, server: { webhooks: { allowPrivate: true } } });
  ({ key: sandboxKey } = await service.createKey({ plan: 'institutional', mode: 'sandbox' }));
  ({ key: liveKey } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  const served = await service.request('GET', '/openapi.json');
  expect(served.status).toBe(200);
  document = served.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and revalidates for free', async () => {
    const result = await new Validator().validate(document);
    expect(result).toEqual({ valid: true });
    expect(document.openapi).toBe('3.1.0');
    const again = await service.request('GET', '/openapi.json', {
      headers: { 'if-none-match': (await service.request('GET', '/openapi.json')).headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('lists every /api route the server registered, with its method', () => {
    const registered = new Set<string>();
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
      // The route tree prints each node's path after its parent's, indented four characters per level.
      const stack: string[] = [];
      for (const line of service.app.printRoutes({ method, commonPrefix: false }).split('\n')) {
        const match = /^([│ ]*)[├└]── (\S+)( \()?/.exec(line);
        if (!match) continue;
        const depth = match[1]!.length / 4;
        stack.length = depth;
        stack.push(match[2]!);
        const path = stack.join('');
        if (match[3] && path.startsWith('/api')) registered.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect([...registered].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !registered.has(route))).toEqual([]);
  });

  it('states parameters with their types, ranges, enums and defaults, from the rules the server applies', () => {
    const parameters = Object.fromEntries(
      document.paths['/api/congressional-trades/summary'].get.parameters.map((parameter: any) => [
        parameter.name,
        parameter.schema,
      ]),
    );
    expect(parameters.days).toMatchObject({ type: 'integer', minimum: 1, maximum: 3650, default: 90 });
    const trades = document.paths['/api/congressional-trades'].get.parameters;
    expect(trades.find((parameter: any) => parameter.name === 'chamber').schema.enum).toEqual(['house', 'senate']);
    const sort = document.paths['/api/v1/leads'].get.parameters.find((parameter: any) => parameter.name === 'sort');
    expect(sort.schema.enum).toContain('-created_at');
    const signalPaging = Object.fromEntries(
      document.paths['/api/signals'].get.parameters.map((parameter: any) => [parameter.name, parameter.schema]),
    );
    expect(signalPaging.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 20 });
    expect(signalPaging.page).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(document.paths['/api/search'].get.security).toEqual([]);
  });
});

describe('every documented operation, answered for real', () => {
  it('markets: lists, the search, macro data, the watchlist and the briefing', async () => {
    const signals = await call('GET', '/api/signals?limit=3');
    const ticker = signals.body.signals[0].ticker as string;
    await call('GET', `/api/signals/ticker/${ticker}?limit=2`);
    await call('GET', '/api/signals?limit=0');
    await call('GET', '/api/signals/macro/yield-curve');
    await call('GET', '/api/signals/macro/indicators');
    await call('GET', '/api/congressional-trades?limit=3&days=3650');
    await call('GET', '/api/congressional-trades/summary?days=3650');
    await call('GET', '/api/insider-trades?limit=3');
    await call('GET', `/api/search?q=${ticker}`);
    await call('GET', `/api/search?q=${ticker}`, { key: undefined });
    await call('GET', `/api/search?q=${ticker}`, { key: 'sk_test_not_a_key' });
    await call('GET', '/api/search/members?q=smith');
    await call('GET', '/api/leads/convergence?limit=3');
    await call('GET', `/api/enrich/${ticker}`);
    await call('POST', '/api/watchlist', { body: { ticker } });
    await call('POST', '/api/watchlist', { body: { ticker } });
    await call('GET', '/api/watchlist');
    await call('GET', `/api/watchlist/${ticker}`);
    await call('POST', '/api/watchlist', { body: { ticker } });
    await call('DELETE', `/api/watchlist/${ticker}`);
    const briefings = await call('GET', '/api/briefings');
    await call('GET', `/api/briefings/${briefings.body.briefings[0].date}`);
    await call('GET', '/api/briefings/2001-01-01');
    await call('GET', '/api/stats/public', { key: undefined });
    await call('GET', '/api/stats/sources', { key: undefined });
    await call('GET', '/api/events?limit=2');
    await call('GET', '/api/signals', { key: 'sk_test_not_a_key' });
  }, 60_000);

  it('verticals: records, search, leads and reports', async () => {
    for (const list of [
      '/api/v1/b2b/companies',
      '/api/v1/b2b/contacts',
      '/api/v1/realestate/properties',
      '/api/v1/realestate/owners',
      '/api/v1/legal/attorneys',
      '/api/v1/legal/firms',
    ]) {
      const page = await call('GET', `${list}?per_page=2`);
      await call('GET', `${list}/${page.body.data[0].id}`);
    }
    await call('GET', '/api/v1/b2b/companies/b2b_999999999');
    await call('GET', '/api/v1/search?q=acme&per_page=3');
    const companies = await call('GET', '/api/v1/b2b/companies?per_page=1');
    const saved = await call('POST', '/api/v1/leads', { body: { record_id: companies.body.data[0].id, tags: ['q4'] } });
    await call('POST', '/api/v1/leads', { body: { record_id: companies.body.data[0].id } });
    await call('GET', '/api/v1/leads?sort=-created_at');
    await call('GET', `/api/v1/leads/${saved.body.data.id}`);
    await call('PATCH', `/api/v1/leads/${saved.body.data.id}`, { body: { status: 'contacted' } });
    await call('PATCH', `/api/v1/leads/${saved.body.data.id}`, { body: { status: 'new' } });
    await call('DELETE', `/api/v1/leads/${saved.body.data.id}`);
    const report = await call('POST', '/api/v1/reports/generate', { body: { vertical: 'b2b', format: 'csv' } });
    await call('GET', '/api/v1/reports');
    await call('GET', `/api/v1/reports/${report.body.data.id}`);
    // Each format's file, once the worker has written it (409 until then).
    const json = await call('POST', '/api/v1/reports/generate', { body: { vertical: 'legal', format: 'json' } });
    for (const [id, mediaType] of [
      [report.body.data.id, 'text/csv'],
      [json.body.data.id, 'application/json'],
    ]) {
      let download: HttpResult | undefined;
      for (let attempt = 0; attempt < 100 && download?.status !== 200; attempt++) {
        download = await call('GET', `/api/v1/reports/${id}/download`);
        if (download.status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(download!.status).toBe(200);
      expect(download!.headers.get('content-type')).toContain(mediaType);
    }
  }, 60_000);

  it('webhooks', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const created = await call('POST', '/api/webhooks', {
      body: { url: receiver.url('openapi'), events: ['signal.created'], filters: { tickers: ['AAPL'] } },
    });
    const id = created.body.id as string;
    receiver.secrets.set('openapi', created.body.secret);
    await verifyEndpoint(call, id);
    await call('POST', '/api/webhooks', { body: { url: 'ftp://example.com', events: [] } });
    await call('GET', '/api/webhooks');
    await call('GET', `/api/webhooks/${id}`);
    await call('PATCH', `/api/webhooks/${id}`, { body: { description: 'orders desk' } });
    await call('POST', `/api/webhooks/${id}/rotate`);
    const ping = await call('POST', `/api/webhooks/${id}/test`);
    await call('GET', `/api/webhooks/${id}/deliveries`);
    // 409 while the webhook worker is attempting the ping (the receiver answers at once, so that ends soon).
    let retry: HttpResult | undefined;
    for (let attempt = 0; attempt < 100 && (!retry || retry.status === 409); attempt++) {
      if (retry) await new Promise((resolve) => setTimeout(resolve, 100));
      retry = await call('POST', `/api/webhooks/${id}/deliveries/${ping.body.delivery.id}/retry`);
    }
    expect(retry!.status).toBe(202);
    await call('POST', `/api/webhooks/${id}/replay?since=2020-01-01T00:00:00Z`);
    await call('DELETE', `/api/webhooks/${id}`);
    await call('GET', `/api/webhooks/${id}`);
    const { key: analyst } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    await call('GET', '/api/webhooks', { key: analyst });
    await receiver.stop();
  }, 60_000);

  it('account: login, keys and usage', async () => {
    const email = `openapi-${Date.now()}@example.com`;
    const { accountId } = await service.createKey({ plan: 'professional', mode: 'live' });
    await service.databases.live.prisma.account.update({
      where: { id: accountId },
      data: { email, passwordHash: await hashPassword('correct horse battery staple') },
    });
    const login = await call('POST', '/api/auth/login', {
      key: undefined,
      body: { email, password: 'correct horse battery staple' },
    });
    await call('POST', '/api/auth/login', { key: undefined, body: { email, password: 'wrong' } });
    await call('POST', '/api/auth/login', { key: undefined, body: { email: 'not an address' } });
    const session = login.body.token as string;
    const key = await call('POST', '/api/keys', { key: session, body: { name: 'ci', mode: 'sandbox' } });
    await call('POST', '/api/keys', { key: sandboxKey, body: { mode: 'live' } });
    await call('GET', '/api/keys', { key: session });
    await call('DELETE', `/api/keys/${key.body.id}`, { key: session });
    await call('DELETE', '/api/keys/00000000-0000-4000-8000-000000000000', { key: session });
    await call('GET', '/api/v1/usage', { key: liveKey });
    await call('GET', '/api/v1/usage/daily?days=7', { key: liveKey });
    await call('GET', '/api/v1/usage/daily?days=0', { key: liveKey });
    await call('GET', '/api/v1/usage');
  });

  it('has exercised every documented operation with a successful answer', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const unanswered = documented.filter((key) => ![...(exercised.get(key) ?? [])].some((status) => status < 300));
    expect(unanswered).toEqual([]);
  });
});

describe('the examples of the document', () => {
  /** Each operation's success media types, by example key: `GET /api/signals`, `GET /api/briefings/{date} text/html`. */
  const successContent = () =>
    new Map(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations as Record<string, any>).flatMap(([method, operation]) => {
          const status = Object.keys(operation.responses).find((code) => code < '300')!;
          return Object.keys(operation.responses[status].content).map((mediaType) => [
            exampleKey(method.toUpperCase(), path, mediaType),
            { path, method, status, mediaType },
          ]);
        }),
      ),
    );

  it('are real answers, one per operation and media type (text ones too), each matching its schema', () => {
    if (process.env.UPDATE_OPENAPI_EXAMPLES) {
      const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
      writeFileSync(EXAMPLES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
    }
    const stored = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, unknown>;
    const content = successContent();
    // Every operation's every success media type has its recorded answer, and nothing else is stored.
    expect(Object.keys(stored).sort()).toEqual([...content.keys()].sort());
    for (const [key, example] of Object.entries(stored)) {
      const { path, method, status, mediaType } = content.get(key)!;
      const served = document.paths[path][method].responses[status].content[mediaType];
      // The served document read the file at start-up: after an update it shows the previous examples.
      if (!process.env.UPDATE_OPENAPI_EXAMPLES) expect(served.example, key).toEqual(example);
      const validate = ajv.getSchema(
        `openapi.json#/${pointer('paths', path, method, 'responses', status)}/content/${pointer(mediaType)}/schema`,
      )!;
      expect(validate(example) ? [] : validate.errors, key).toEqual([]);
    }
  });

  it('cut a CSV file to its header and first two rows, and keep the briefing page whole', () => {
    const csv = examples['GET /api/v1/reports/{id}/download text/csv'] as string;
    const rows = parse(csv) as string[][];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('id');
    const html = examples['GET /api/briefings/{date} text/html'] as string;
    expect(html).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
  });
});
