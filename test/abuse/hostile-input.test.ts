import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snakeCase } from '../../subgraphs/platform/names.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { OBJECT_MEMBER_NAMES } from './hostile-values.ts';

/** Regression examples for what the abuse suite (rest-fuzz.test.ts) found or was written to prove. */
let service: TestService;
let key: string;
// Every refusal here comes before a record is looked up; the scale is the suite's common one (a shared template).
const recordId = 'b2b_1';

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  ({ key } = await service.createKey());
});
afterAll(() => service?.stop());

const rowCounts = async () => {
  const [counts] = await service.databases.sandbox.sql.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM leads) AS leads, (SELECT count(*)::int FROM watchlist_entries) AS watchlist,
      (SELECT count(*)::int FROM report_jobs) AS reports`,
  );
  const [keys] = await service.databases.live.sql.query<{ keys: number }>('SELECT count(*)::int AS keys FROM api_keys');
  return { ...counts, ...keys };
};

/** A JSON request whose body is sent as written (lone surrogates as `\ud800` escapes). */
const sendJson = async (method: string, path: string, json: string) => {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: json,
  });
  return { status: response.status, body: await response.json() };
};

describe('parameter names that are members of Object.prototype', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '?%s=1 is a 400 naming it, with or without a key',
    async (name) => {
      const open = await service.request('GET', `/api/stats/public?${name}=1`);
      expect(open.status).toBe(400);
      expect(open.body).toEqual({
        error: 'invalid_parameter',
        message: expect.any(String),
        details: { [name]: 'is not a parameter of this endpoint' },
      });
      const keyed = await service.get(`/api/v1/b2b/companies?${name}=1`, key);
      expect(keyed.status).toBe(400);
      expect(keyed.body.details).toEqual({ [name]: 'is not a parameter of this endpoint' });
    },
  );

  it('a body member named constructor or toString is an unknown field, and nothing is saved', async () => {
    const before = await rowCounts();
    const response = await service.request('POST', '/api/v1/leads', {
      key,
      body: { record_id: recordId, constructor: 'x', toString: 'y' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual({
      constructor: 'is not a field of this request',
      toString: 'is not a field of this request',
    });
    expect(await rowCounts()).toEqual(before);
  });
});

describe('names looked up in a table that are members of Object.prototype', () => {
  const GENERATE = `mutation ($fields: [String!]) { generateReport(input: { vertical: b2b, fields: $fields }) { id } }`;
  /** The first GraphQL error's code and details. */
  const graphqlRefusal = (response: { body: { errors?: { extensions?: Record<string, unknown> }[] } }) => {
    const [error] = response.body.errors ?? [];
    return { code: error?.extensions?.code, details: error?.extensions?.details as Record<string, string> };
  };

  it.each(OBJECT_MEMBER_NAMES)(
    'a report field %s is a 400 naming it, in REST and GraphQL, and no job is queued',
    async (name) => {
      const { key: own } = await service.createKey();
      const before = await rowCounts();
      const rest = await service.request('POST', '/api/v1/reports/generate', {
        key: own,
        body: { vertical: 'b2b', fields: ['id', name] },
      });
      expect(rest.status, rest.text).toBe(400);
      expect(rest.body.details.fields).toContain(`unknown fields ${name};`);
      const graphql = await service.graphqlRaw(GENERATE, { fields: ['id', name] }, own);
      expect(graphqlRefusal(graphql)).toMatchObject({
        code: 'invalid_parameter',
        details: { fields: expect.stringContaining(`unknown fields ${name};`) },
      });
      expect(await rowCounts()).toEqual(before);
    },
  );

  it.each(OBJECT_MEMBER_NAMES)('a report filter %s is a 400 naming it, in REST and a GraphQL literal', async (name) => {
    const { key: own } = await service.createKey();
    const before = await rowCounts();
    const rest = await service.request('POST', '/api/v1/reports/generate', {
      key: own,
      body: { vertical: 'b2b', filters: { [name]: 1 } },
    });
    expect(rest.status).toBe(400);
    // A JSON body holding `__proto__` is refused whole (secure-json-parse), before any name is looked up.
    expect(Object.keys(rest.body.details)).toEqual([name === '__proto__' ? 'body' : `filters.${snakeCase(name)}`]);
    // A GraphQL object literal can hold `__proto__` as a name like any other: it must not vanish.
    const literal = `mutation { generateReport(input: { vertical: b2b, filters: { ${name}: 1 } }) { id } }`;
    const graphql = await service.graphqlRaw(literal, {}, own);
    expect(graphqlRefusal(graphql)).toEqual({
      code: 'invalid_parameter',
      details: { [`filters.${name}`]: 'is not a filter of companies' },
    });
    expect(await rowCounts()).toEqual(before);
  });

  it.each(OBJECT_MEMBER_NAMES)(
    'sort=-%s, and a webhook event or filter of that name, are 400s naming the field',
    async (name) => {
      const sort = await service.get(`/api/v1/b2b/companies?sort=-${name}`, key);
      expect(sort.status).toBe(400);
      expect(Object.keys(sort.body.details)).toEqual(['sort']);
      const events = await service.request('POST', '/api/webhooks', {
        key,
        body: { url: 'https://hooks.example.com/in', events: [name] },
      });
      expect(events.status).toBe(400);
      expect(Object.keys(events.body.details)).toEqual(['events.0']);
      const filters = await service.request('POST', '/api/webhooks', {
        key,
        body: { url: 'https://hooks.example.com/in', events: ['signal.created'], filters: { [name]: [] } },
      });
      expect(filters.status).toBe(400);
      expect(Object.keys(filters.body.details)).toEqual([name === '__proto__' ? 'body' : `filters.${name}`]);
      const graphql = await service.graphqlRaw(
        `mutation ($events: [String!]) {
          createWebhookEndpoint(input: { url: "https://hooks.example.com/in", events: $events }) { secret }
        }`,
        { events: [name] },
        key,
      );
      expect(graphqlRefusal(graphql)).toEqual({
        code: 'invalid_parameter',
        details: { 'events.0': expect.stringContaining('each must be one of') },
      });
    },
  );

  it.each(OBJECT_MEMBER_NAMES)('a GraphQL spread of an undefined fragment %s is a 400, not a 500', async (name) => {
    const response = await service.graphqlRaw(`{ ...${name} }`, {}, key);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toBe(`Unknown fragment "${name}".`);
  });
});

describe('NUL characters and unpaired surrogates', () => {
  const nulProblem = 'must not contain NUL characters or unpaired UTF-16 surrogates';

  it.each([
    ['/api/v1/search?q=a%00b', 'q'],
    ['/api/v1/realestate/properties?city=a%00b', 'city'],
    ['/api/v1/legal/attorneys?practice_area=%00', 'practice_area'],
    ['/api/v1/leads?tag=x%00', 'tag'],
    ['/api/signals?ticker=A%00', 'ticker'],
    ['/api/v1/b2b/companies/b2b_1%00', 'id'],
  ])('GET %s is a 400 naming %s', async (path, name) => {
    const response = await service.get(path, key);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_parameter',
      message: expect.any(String),
      details: { [name]: nulProblem },
    });
  });

  it.each([
    ['POST', '/api/v1/leads', () => JSON.stringify({ record_id: recordId, notes: 'a\u0000b' }), 'notes'],
    ['POST', '/api/v1/leads', () => `{"record_id": "${recordId}", "tags": ["ok", "\\ud800"]}`, 'tags.1'],
    ['POST', '/api/watchlist', () => JSON.stringify({ ticker: 'AAPL', company_name: 'Apple\u0000' }), 'company_name'],
    ['POST', '/api/keys', () => JSON.stringify({ name: 'ci\u0000' }), 'name'],
    ['POST', '/api/keys', () => '{"name": "\\udc00 trailing"}', 'name'],
    [
      'POST',
      '/api/v1/reports/generate',
      () => JSON.stringify({ vertical: 'b2b', filters: { state: 'C\u0000' } }),
      'filters.state',
    ],
  ])('%s %s with unsafe text is a 400 naming it, and nothing is written', async (method, path, json, name) => {
    const before = await rowCounts();
    const response = await sendJson(method, path, json());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_parameter',
      message: expect.any(String),
      details: { [name]: nulProblem },
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('GraphQL variables, GET variables and string literals with NUL are a 400 before the operation runs', async () => {
    const query = 'query Search($q: String) { search(q: $q) { nodes { id } } }';
    const viaBody = await service.graphqlRaw(query, { q: 'a\u0000b' }, key);
    expect(viaBody.status).toBe(400);
    expect(viaBody.body.errors[0].extensions).toEqual({ code: 'invalid_parameter', details: { q: nulProblem } });

    const viaGet = await service.request(
      'GET',
      `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent('{"q":"a\\u0000b"}')}`,
      {
        key,
        headers: { 'apollo-require-preflight': 'true' },
      },
    );
    expect(viaGet.status).toBe(400);
    expect(viaGet.body.errors[0].extensions.details).toEqual({ q: nulProblem });

    // Twice: the literal check is remembered per parsed document, and the second request reuses the document.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const literal = await service.graphqlRaw('{ search(q: "a\\u0000b") { nodes { id } } }', {}, key);
      expect(literal.status).toBe(400);
      expect(literal.body.errors[0].extensions).toMatchObject({
        code: 'invalid_parameter',
        details: { query: expect.stringContaining('NUL') },
      });
    }
    // A clean document's remembered answer does not hide a NUL in its variables.
    for (const q of ['fine', 'a\u0000b']) {
      const answer = await service.graphqlRaw(query, { q }, key);
      expect(answer.status, q).toBe(q === 'fine' ? 200 : 400);
    }
  });
});

describe('refusals by the HTTP framework are our error bodies', () => {
  const expectOurBody = (body: unknown) =>
    expect(body).toEqual({ error: 'invalid_parameter', message: expect.any(String), details: expect.any(Object) });

  it('a path that is not valid percent-encoding is a 400', async () => {
    const response = await service.get('/api/v1/b2b/companies/%FF', key);
    expect(response.status).toBe(400);
    expectOurBody(response.body);
    expect(response.text).not.toContain('FST_');
  });

  it('a path parameter over 100 characters is a 414, a 100 kB URL a 414, 20 kB of headers a 431', async () => {
    const longSegment = await service.get(`/api/v1/b2b/companies/${'x'.repeat(200)}`, key);
    expect(longSegment.status).toBe(414);
    expectOurBody(longSegment.body);

    const longUrl = await service.get(`/api/v1/search?q=${'y'.repeat(100_000)}`, key);
    expect(longUrl.status).toBe(414);
    expectOurBody(longUrl.body);

    const bigHeaders = await service.request('GET', '/api/v1/usage', {
      key,
      headers: { 'x-padding': 'z'.repeat(20_000) },
    });
    expect(bigHeaders.status).toBe(431);
    expectOurBody(bigHeaders.body);
  });

  it('a body that is not JSON, empty, or __proto__-poisoned is a 400 in our words', async () => {
    for (const json of ['{not json', '', '{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {}}}']) {
      const response = await sendJson('POST', '/api/v1/leads', json);
      expect(response.status).toBe(400);
      expectOurBody(response.body);
      expect(JSON.stringify(response.body)).not.toMatch(/FST_|content-type is set/);
    }
  });

  it('a GraphQL document with more than 100 validation errors ends in our sentence, not "Validation aborted."', async () => {
    // Unknown arguments of one field: 101 unknown root fields would be refused earlier by the root-field cap.
    const argumentList = Array.from({ length: 101 }, (_, index) => `unknown${index}: 1`).join(', ');
    const response = await service.graphqlRaw(`{ publicStats(${argumentList}) { signals7d } }`, {}, key);
    expect(response.status).toBe(400);
    const messages = (response.body.errors as { message: string }[]).map((error) => error.message);
    expect(messages.length).toBeGreaterThan(100);
    expect(messages.filter((message) => message.includes('Validation aborted'))).toEqual([]);
    expect(messages.at(-1)).toBe('The query has too many errors or is too complex to validate.');
  });
});

describe('found by the abuse suite', () => {
  it('a watchlist body field of the wrong type or unknown is a 400 naming it as sent, and nothing is added', async () => {
    const before = await rowCounts();
    const wrongType = await service.request('POST', '/api/watchlist', { key, body: { ticker: 0 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({
      error: 'invalid_parameter',
      message: 'Invalid parameter: ticker.',
      details: { ticker: 'must be a string' },
    });
    const unknown = await service.request('POST', '/api/watchlist', {
      key,
      body: { ticker: 'AAPL', company_name: ['Apple'], notes: 'x' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual({ company_name: 'must be a string', notes: 'is not a field of this request' });
    expect(await rowCounts()).toEqual(before);
  });

  it('a number too large for a double (400 digits) is a 400 naming the parameter', async () => {
    const response = await service.get(`/api/v1/realestate/properties?min_value=${'9'.repeat(400)}`, key);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_parameter',
      message: 'Invalid parameter: min_value.',
      details: { min_value: 'must be a number' },
    });
  });
});
