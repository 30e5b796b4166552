import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApolloServer } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { createServer } from '../../gateway/server.ts';
import { REST_QUERY_ROUTES, requiredVariables } from '../support/rest-queries.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/**
 * POST /graphql hands a plain JSON request to the execution seam (gateway/execution) and writes its outcome
 * itself (gateway/graphql/route.ts); Apollo Server's HTTP handler answers the rest. Both servers here share the
 * databases; one is as deployed, the other sends every request through Apollo Server's HTTP handler. Every
 * response must be the same: status, body and the headers a client reads.
 */
let service: TestService;
let apolloOnly: FastifyInstance;
let apolloOnlyUrl: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  apolloOnly = await createServer({
    dataDir: service.store.dataDir,
    databases: service.databases,
    graphqlThroughApolloOnly: true,
  });
  await apolloOnly.listen({ port: 0, host: '127.0.0.1' });
  const address = apolloOnly.server.address();
  apolloOnlyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await apolloOnly?.close();
  await service?.stop();
});
afterEach(() => vi.restoreAllMocks());

/** The headers a client can read that both paths set; the rest differ per request (date, request id). */
const COMPARED_HEADERS = ['content-type', 'cache-control', 'retry-after', 'content-encoding', 'vary'];

interface Sent {
  body: unknown;
  key?: string;
  headers?: Record<string, string>;
}

async function post(url: string, { body, key, headers = {} }: Sent) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: Object.fromEntries(COMPARED_HEADERS.map((name) => [name, response.headers.get(name)])),
    text: await response.text(),
  };
}

/** The request on both servers; how many of the deployed server's requests Apollo Server's HTTP handler answered. */
async function bothWays(sent: Sent) {
  const apolloRuns = vi.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
  const fast = await post(service.url, sent);
  const reachedApollo = apolloRuns.mock.calls.length;
  apolloRuns.mockRestore();
  const viaApollo = await post(apolloOnlyUrl, sent);
  return { fast, viaApollo, reachedApollo };
}

describe('the /graphql fast path', () => {
  it('answers every query of the REST tables itself, as Apollo Server does', async () => {
    const { key } = await service.createKey();
    const listData = async (query: string) =>
      JSON.parse((await post(apolloOnlyUrl, { body: { query }, key })).text).data;
    let answeredDirectly = 0;
    for (const route of REST_QUERY_ROUTES) {
      const variables = await requiredVariables(route.path, service.databases.sandbox, listData);
      const { fast, viaApollo, reachedApollo } = await bothWays({ body: { query: route.operation, variables }, key });
      expect(fast, `${route.method} ${route.path}`).toEqual(viaApollo);
      // Plain requests, successes and errors alike, are the seam's; Apollo Server's HTTP handler never ran.
      expect(reachedApollo, route.path).toBe(0);
      if (fast.status === 200 && !JSON.parse(fast.text).errors) answeredDirectly += 1;
    }
    // So the comparison is not vacuous: 28 of 33 today. The other five are errors without further variables
    // (the searches without `q` or `symbol`; no saved lead or report job in the sandbox to look up).
    expect(answeredDirectly).toBeGreaterThanOrEqual(28);
  });

  it.each<[string, number, Sent['body'], Record<string, string>?]>([
    ['an unknown record (null, no error)', 0, { query: '{ company(id: "b2b_999999999") { id name } }' }],
    ['a malformed id (invalid_parameter)', 0, { query: '{ company(id: "nope") { id } }' }],
    [
      'a page past the limit',
      0,
      { query: 'query ($n: Int) { companies(perPage: $n) { nodes { id } } }', variables: { n: 1000 } },
    ],
    [
      'a variable of the wrong type',
      0,
      { query: 'query ($n: Int) { companies(perPage: $n) { nodes { id } } }', variables: { n: 'x' } },
    ],
    ['a missing required variable', 0, { query: 'query ($id: String!) { company(id: $id) { id } }' }],
    [
      'unsafe text in a variable',
      0,
      { query: 'query ($q: String) { search(q: $q) { pageInfo { total } } }', variables: { q: 'a\u0000' } },
    ],
    ['a document that does not validate', 0, { query: '{ companies { nodes { nope } } }' }],
    ['a syntax error', 0, { query: '{ companies { ' }],
    [
      'an operation picked by name',
      0,
      {
        query: 'query A { companies(perPage: 1) { nodes { id } } } query B { contacts(perPage: 1) { nodes { id } } }',
        operationName: 'B',
      },
    ],
    [
      'two operations and no name',
      0,
      { query: 'query A { companies(perPage: 1) { nodes { id } } } query B { contacts(perPage: 1) { nodes { id } } }' },
    ],
    ['an empty operation name', 0, { query: '{ companies(perPage: 1) { nodes { id } } }', operationName: '' }],
    [
      'null variables and name',
      0,
      { query: '{ companies(perPage: 1) { nodes { id } } }', variables: null, operationName: null },
    ],
    ['variables as a string', 1, { query: '{ companies(perPage: 1) { nodes { id } } }', variables: '{}' }],
    [
      'a persisted-query hash',
      1,
      {
        query: '{ companies(perPage: 1) { nodes { id } } }',
        extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } },
      },
    ],
    ['introspection', 0, { query: '{ __schema { queryType { name } } }' }],
    [
      'a query across both subgraphs',
      0,
      { query: '{ companies(perPage: 2, sort: ID_ASC) { nodes { id signals(limit: 1) { id } } } }' },
    ],
    ['a mutation', 0, { query: 'mutation { saveLead(input: { recordId: "nope" }) { id } }' }],
    [
      'the GraphQL response type asked for',
      0,
      { query: '{ companies(perPage: 1) { nodes { id } } }' },
      { accept: 'application/graphql-response+json' },
    ],
    ['a type nobody serves', 1, { query: '{ companies(perPage: 1) { nodes { id } } }' }, { accept: 'text/csv' }],
    [
      'a ranked accept header',
      0,
      { query: '{ companies(perPage: 1) { nodes { id } } }' },
      { accept: 'application/graphql-response+json;q=0.5, application/json' },
    ],
    [
      'the accept header of graphql-request',
      0,
      { query: '{ companies(perPage: 1) { nodes { id } } }' },
      { accept: 'application/graphql-response+json, application/json' },
    ],
    [
      'the subscription callback type',
      1,
      { query: '{ companies(perPage: 1) { nodes { id } } }' },
      { accept: 'application/json; callbackSpec=1.0' },
    ],
    [
      'a compressed answer',
      0,
      { query: '{ companies(perPage: 20) { nodes { id name } } }' },
      { 'accept-encoding': 'gzip' },
    ],
  ])('answers %s as Apollo Server does (reaching it %i times)', async (_name, reaching, body, headers) => {
    const { key } = await service.createKey();
    const { fast, viaApollo, reachedApollo } = await bothWays({ body, key, headers });
    expect(fast).toEqual(viaApollo);
    // 0: `execute` answered, or a check before any handler refused; 1: Apollo Server's HTTP handler answered, once.
    expect(reachedApollo).toBe(reaching);
  });

  it('refuses an empty operation name with a 400, where the gateway answered 500', async () => {
    const { key } = await service.createKey();
    const body = { query: '{ companies(perPage: 1) { nodes { id } } }', operationName: '' };
    const refused = await post(service.url, { body, key });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).errors[0].extensions.details).toEqual({
      operationName: 'names no operation of the document',
    });
  });

  it('refuses what the plan does not reach, and what an anonymous caller may not ask, as Apollo Server does', async () => {
    const { key } = await service.createKey({ plan: 'analyst' });
    const profile = { query: '{ ticker(symbol: "NVDA") { profile { companyName ceo } } }' };
    const refused = await bothWays({ body: profile, key });
    expect(refused.fast).toEqual(refused.viaApollo);
    expect(refused.fast.status).toBe(403);
    const anonymous = await bothWays({ body: { query: '{ companies(perPage: 1) { nodes { id } } }' } });
    expect(anonymous.fast).toEqual(anonymous.viaApollo);
    expect(anonymous.fast.status).toBeGreaterThanOrEqual(400);
    const publicStats = await bothWays({ body: { query: '{ publicStats { signals7d } }' } });
    expect(publicStats.fast).toEqual(publicStats.viaApollo);
    expect(publicStats.fast.status).toBe(200);
  });

  it('charges a field limit once a request, so the limit runs out where Apollo Server’s does', async () => {
    // `search` allows 30 calls a minute; an unknown vertical is an error the resolver reports, after the charge.
    const [{ key }, { key: other }] = [await service.createKey(), await service.createKey()];
    const failing = { query: '{ search(q: "acme", verticals: "nope") { pageInfo { total } } }' };
    const statuses: number[] = [];
    for (let call = 1; call <= 31; call += 1) {
      const fast = await post(service.url, { body: failing, key });
      const viaApollo = await post(apolloOnlyUrl, { body: failing, key: other });
      expect(fast, `call ${call}`).toEqual(viaApollo);
      statuses.push(fast.status);
    }
    expect(JSON.parse((await post(service.url, { body: failing, key: other })).text).errors[0].extensions.code).toBe(
      'invalid_parameter',
    );
    expect(statuses.slice(0, 30).every((status) => status === statuses[0] && status !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
