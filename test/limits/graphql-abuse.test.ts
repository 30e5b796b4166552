/**
 * Documents from an attack on the running service: each is refused with a 400 before anything expensive runs
 * (validation, planning, resolvers), and nothing it would have written is written.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LIMITS, QUERY_LIMITS } from '../../gateway/limits/policy.ts';
import { fragmentFanOut } from '../support/fragment-fan-out.ts';
import { startTestService } from '../support/service.ts';
import type { HttpResult, TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
});
afterAll(async () => {
  await service?.stop();
});

const aliases = (count: number, selection: string) =>
  Array.from({ length: count }, (_, index) => `a${index}: ${selection}`).join(' ');

function expectRefusal(response: HttpResult, detail: RegExp) {
  expect(response.status, response.text).toBe(400);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0].extensions).toEqual({
    code: 'invalid_parameter',
    details: { query: expect.stringMatching(detail) },
  });
  expect(response.text).not.toMatch(/stack|at [A-Za-z]+ \(/i);
}

/** Past QUERY_LIMITS.maxTokens the document is not even parsed: graphql-js's syntax error, as a 400. */
function expectTokenRefusal(response: HttpResult) {
  expect(response.status, response.text).toBe(400);
  expect(response.body.errors[0].extensions).toEqual({ code: 'invalid_parameter' });
  expect(response.body.errors[0].message).toMatch(
    new RegExp(`^Syntax Error: Document contains more tha[nt] ${QUERY_LIMITS.maxTokens} tokens`),
  );
  expect(response.text).not.toMatch(/call stack|at [A-Za-z]+ \(/i);
}

describe('GraphQL documents that multiply work', () => {
  it.each([24, 40, 200])(
    'refuses the %i-level fragment fan-out at once while /healthz keeps answering',
    async (levels) => {
      const { key } = await service.createKey();
      const document = fragmentFanOut(levels);
      if (levels === 24) expect(document.length).toBeLessThan(1_000);
      const started = Date.now();
      const [refused, health] = await Promise.all([
        service
          .request('POST', '/graphql', { key, body: { query: document } })
          .then((response) => ({ response, ms: Date.now() - started })),
        service.request('GET', '/healthz').then((response) => ({ response, ms: Date.now() - started })),
      ]);
      if (levels === 200) expectTokenRefusal(refused.response);
      else expectRefusal(refused.response, /^selects \d+ top-level fields; the maximum is 20$/);
      expect(refused.ms).toBeLessThan(2_000);
      expect(health.response.status).toBe(200);
      expect(health.ms).toBeLessThan(2_000);
    },
  );

  it('refuses 1,000 aliases of one field, of introspection and of a mutation, and as many as the token limit allows', async () => {
    const { key } = await service.createKey();
    const before = await service.databases.sandbox.prisma.watchlistEntry.count();
    const selections = {
      publicStats: 'publicStats { signals7d }',
      introspection: '__schema { types { fields { name args { name } } } }',
      mutation: 'addWatchlistEntry(input: { ticker: "XOM" }) { created }',
    };
    for (const [kind, selection] of Object.entries(selections)) {
      const operation = kind === 'mutation' ? 'mutation' : 'query';
      expectTokenRefusal(await service.graphqlRaw(`${operation} { ${aliases(1_000, selection)} }`, {}, key));
      expectRefusal(
        await service.graphqlRaw(`${operation} { ${aliases(100, selection)} }`, {}, key),
        /^selects 100 top-level fields/,
      );
    }
    expect(await service.databases.sandbox.prisma.watchlistEntry.count()).toBe(before);
  });

  it('caps aliases of one field in a nested selection set, and one response name used many times', async () => {
    const { key } = await service.createKey();
    const nested = `{ company(id: "b2b_1") { ${aliases(QUERY_LIMITS.maxAliasesPerField + 1, 'name')} } }`;
    expectRefusal(
      await service.graphqlRaw(nested, {}, key),
      /^selects name 11 times in one selection set; the maximum is 10$/,
    );
    // Thousands of selections of one name cost graphql-js's validation seconds; they are refused before it runs.
    const started = Date.now();
    const repeated = `{ publicStats { ${Array.from({ length: 1_500 }, () => 'signals7d').join(' ')} } }`;
    expectRefusal(await service.graphqlRaw(repeated, {}, key), /^selects signals7d 1500 times/);
    const sameName = `{ publicStats { ${Array.from({ length: 600 }, (_, index) => `x: field${index}`).join(' ')} } }`;
    expectRefusal(await service.graphqlRaw(sameName, {}, key), /^selects x 600 times/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('counts introspection: GraphiQL’s query passes, three of it aliased cost too much, deeper nesting is refused', async () => {
    const { key } = await service.createKey({ plan: 'analyst' });
    const graphiql = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const passed = await service.graphqlRaw(graphiql, {}, key);
    expect(passed.status).toBe(200);
    expect(passed.body.data.__schema.queryType.name).toBe('Query');
    const operationText = graphiql.slice(
      graphiql.indexOf('__schema') + '__schema'.length,
      graphiql.indexOf('fragment FullType'),
    );
    const body = operationText.slice(0, operationText.lastIndexOf('}'));
    const fragments = graphiql.slice(graphiql.indexOf('fragment FullType'));
    const three = `query { a: __schema ${body} b: __schema ${body} c: __schema ${body} } ${fragments}`;
    expectRefusal(await service.graphqlRaw(three, {}, key), /^has an estimated cost of \d+; the maximum is 20000$/);
    let ofType = 'name';
    for (let level = 0; level < QUERY_LIMITS.maxIntrospectionDepth; level += 1) ofType = `ofType { ${ofType} }`;
    expectRefusal(
      await service.graphqlRaw(`{ __type(name: "Query") { ${ofType} } }`, {}, key),
      /^nests introspection 22 levels deep/,
    );
  });
});

describe('per-field limits and mutations, counted per occurrence', () => {
  it('charges each aliased members(q:) call and charges nothing for a refused operation', async () => {
    const { key } = await service.createKey();
    const members = (count: number) =>
      service.graphqlRaw(`{ ${aliases(count, 'members(q: "pelosi") { similarity }')} }`, {}, key);
    const { max } = FIELD_LIMITS['Query.members']!;
    expect(max).toBe(30);
    // 50 aliases are refused whole, before any call is counted.
    expectRefusal(await members(50), /top-level fields|selects members 50 times/);
    expect((await members(10)).status).toBe(200);
    expect((await members(10)).status).toBe(200);
    expect((await members(5)).status).toBe(200);
    // 25 spent: ten more would pass the limit, so the operation is refused and spends nothing.
    const refused = await members(10);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await members(5)).status).toBe(200);
    expect((await members(1)).status).toBe(429);
  });

  it('refuses 30 aliased generateReport before any job exists, and charges 5 aliased ones as 5', async () => {
    const { key, accountId } = await service.createKey({ plan: 'professional' });
    const jobs = () => service.databases.sandbox.prisma.reportJob.count({ where: { accountId } });
    const generate = (count: number) =>
      service.graphqlRaw(`mutation { ${aliases(count, 'generateReport(input: { vertical: b2b }) { id }')} }`, {}, key);
    expectRefusal(await generate(30), /top-level fields|runs 30 mutations/);
    expect(await jobs()).toBe(0);
    expect((await generate(5)).status).toBe(200);
    expect((await generate(5)).status).toBe(200);
    expect(await jobs()).toBe(10);
    const refused = await generate(1);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(await jobs()).toBe(10);
  });

  it('caps the mutations of one operation and writes nothing for a refused one', async () => {
    const { key, accountId } = await service.createKey();
    const entries = () => service.databases.sandbox.prisma.watchlistEntry.count({ where: { accountId } });
    const add = (tickers: string[]) =>
      service.graphqlRaw(
        `mutation { ${tickers.map((ticker) => `${ticker}: addWatchlistEntry(input: { ticker: "${ticker}" }) { created }`).join(' ')} }`,
        {},
        key,
      );
    expectRefusal(await add(['AA', 'BB', 'CC', 'DD', 'EE', 'FF']), /^runs 6 mutations; the maximum is 5$/);
    expect(await entries()).toBe(0);
    const allowed = await add(['AA', 'BB', 'CC', 'DD', 'EE']);
    expect(allowed.status).toBe(200);
    expect(await entries()).toBe(5);
  });
});

describe('malformed GraphQL requests', () => {
  it('answers 400 to two anonymous operations, to none, and to an unknown operationName', async () => {
    const { key } = await service.createKey();
    const two = await service.graphqlRaw(
      '{ publicStats { signals7d } } { publicStats { signals24h: signals7d } }',
      {},
      key,
    );
    expect(two.status).toBe(400);
    expect(two.body.errors[0].extensions.code).toBe('invalid_parameter');
    expect(two.body.errors[0].extensions.details).toEqual({
      operationName: 'is required: the document contains 2 operations',
    });
    const unknown = await service.request('POST', '/graphql', {
      key,
      body: { query: 'query A { publicStats { signals7d } }', operationName: 'B' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toEqual({
      message: 'The document has no operation named "B".',
      extensions: { code: 'invalid_parameter', details: { operationName: 'names no operation of the document' } },
    });
    const none = await service.graphqlRaw('fragment F on Query { publicStats { signals7d } }', {}, key);
    expect(none.status).toBe(400);
    const named = await service.request('POST', '/graphql', {
      key,
      body: { query: 'query A { publicStats { signals7d } } query B { __typename }', operationName: 'B' },
    });
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual({ __typename: 'Query' });
  });

  it('refuses deep nesting with a clean 400: past the token limit, and within it', async () => {
    const { key } = await service.createKey();
    const nest = (levels: number) => `{ ${'publicStats { '.repeat(levels)}signals7d${' }'.repeat(levels + 1)}`;
    expectTokenRefusal(await service.graphqlRaw(nest(5_000), {}, key));
    expectRefusal(await service.graphqlRaw(nest(600), {}, key), /^is nested 601 levels deep; the maximum is 10$/);
  });

  it('refuses a batch (a JSON array) and a body over the size limit with JSON errors', async () => {
    const { key } = await service.createKey();
    const batch = await service.request('POST', '/graphql', {
      key,
      body: [{ query: '{ __typename }' }, { query: '{ __typename }' }],
    });
    expect(batch.status).toBe(400);
    expect(batch.headers.get('content-type')).toMatch(/json/);
    expect(batch.body.errors[0]).toEqual({
      message: 'Batched GraphQL requests are not accepted: send one operation per request.',
      extensions: {
        code: 'invalid_parameter',
        details: { body: 'must be one GraphQL request object; batches (a JSON array) are not accepted' },
      },
    });
    const padding = 'x'.repeat(QUERY_LIMITS.maxBodyBytes);
    const large = await service.request('POST', '/graphql', { key, body: { query: `{ __typename } # ${padding}` } });
    expect(large.status).toBe(413);
    // Refused by the HTTP layer before GraphQL runs, and still a GraphQL response.
    expect(large.body.errors[0].extensions.code).toBe('invalid_parameter');
  });

  it('applies the same bounds to GET /graphql', async () => {
    const { key } = await service.createKey();
    const query = encodeURIComponent(`{ ${aliases(30, 'publicStats { signals7d }')} }`);
    const refused = await service.request('GET', `/graphql?query=${query}`, {
      key,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expectRefusal(refused, /top-level fields/);
  });
});
