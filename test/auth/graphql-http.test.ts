/**
 * /graphql's HTTP conventions: GET with a bearer credential, the public fields without one, CSRF prevention only
 * where a cookie is sent, and every refusal as a GraphQL response with the status of the GraphQL-over-HTTP spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_LIMITS } from '../../gateway/access/anonymous-limit.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import { startTestService } from '../support/service.ts';
import type { HttpResult, TestService } from '../support/service.ts';

const get = (query: string) => `/graphql?query=${encodeURIComponent(query)}`;
const SIGNALS = '{ signals(limit: 1) { nodes { id } } }';

/** A GraphQL response with one error of `code` and no `data`, nothing of the REST body beside it. */
function expectGraphQLError(response: HttpResult, status: number, code: string) {
  const context = `${response.status} ${response.text.slice(0, 400)}`;
  expect(response.status, context).toBe(status);
  expect(response.headers.get('content-type'), context).toMatch(/^application\/json/);
  expect(Object.keys(response.body), context).toEqual(['errors']);
  expect(response.body.errors, context).toHaveLength(1);
  expect(response.body.errors[0], context).toMatchObject({ message: expect.any(String), extensions: { code } });
  return response.body.errors[0] as { message: string; extensions: Record<string, unknown> };
}

let service: TestService;
beforeAll(async () => {
  // Two sandbox credits: a sandbox key is refused from its third call on.
  service = await startTestService({ server: { limits: createLimits({ scheme: 'B', sandboxCredits: 2 }) } });
});
afterAll(() => service?.stop());

describe('GET /graphql', () => {
  it('runs a query with a bearer credential and no other header (no CSRF refusal)', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'live' });
    const response = await service.request('GET', get(SIGNALS), { key });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ data: { signals: { nodes: [] } } });
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('refuses a request that carries a cookie but could come from another site, and only that', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'live' });
    const cookie = '__Host-session=anything';
    // Only the dashboard's session cookie authenticates anything; another cookie alone is no reason to refuse.
    const other = await service.request('GET', get('{ __typename }'), { headers: { cookie: 'lb=1; __Host-csrf=x' } });
    expect(other.status, other.text).toBe(200);
    const forged = await service.request('GET', get('{ publicStats { membersTracked } }'), { headers: { cookie } });
    const error = expectGraphQLError(forged, 400, 'invalid_parameter');
    expect(error.message).toContain('apollo-require-preflight');
    expect(error.extensions.details).toEqual({ cookie: expect.stringContaining('Authorization') });
    const formPost = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(formPost.status).toBe(400);

    // A header or body type no other site can send without a preflight, or a bearer credential, passes.
    const preflighted = await service.request('GET', get('{ __typename }'), {
      headers: { cookie, 'apollo-require-preflight': 'true' },
    });
    expect(preflighted.status, preflighted.text).toBe(200);
    const withBearer = await service.request('GET', get(SIGNALS), { key, headers: { cookie } });
    expect(withBearer.status, withBearer.text).toBe(200);
    const json = await service.request('POST', '/graphql', { body: { query: '{ __typename }' }, headers: { cookie } });
    expect(json.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('without a credential', () => {
  it('answers ticker, publicStats and introspection, over GET and POST, as the public REST routes do', async () => {
    const stats = await service.request('GET', get('{ publicStats { congressionalTrades membersTracked } }'));
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body).toEqual({ data: { publicStats: { congressionalTrades: 0, membersTracked: 0 } } });
    const ticker = await service.request('POST', '/graphql', {
      body: { query: '{ ticker(symbol: "NVDA") { ticker found profile { companyName } } }' },
    });
    expect(ticker.body).toEqual({ data: { ticker: { ticker: 'NVDA', found: false, profile: null } } });
    const schema = await service.request('POST', '/graphql', {
      body: { query: '{ __schema { queryType { name } } }' },
    });
    expect(schema.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    // Counted against the address, as anonymous REST calls are.
    expect(schema.headers.get('x-ratelimit-limit')).toBe(String(ANONYMOUS_LIMITS.public.max));
  });

  it('refuses anything else with a GraphQL 401 and WWW-Authenticate: another field, a public one twice, a field above the analyst plan', async () => {
    for (const query of [
      SIGNALS,
      'mutation { deleteLead(input: { id: "lead_1" }) { id } }',
      '{ a: ticker(symbol: "NVDA") { ticker } b: ticker(symbol: "AAPL") { ticker } }',
      '{ ticker(symbol: "NVDA") { profile { ceo } } }',
    ]) {
      const response = await service.request('POST', '/graphql', { body: { query } });
      const error = expectGraphQLError(response, 401, 'unauthorized');
      expect(error.message, query).toMatch(/^A valid API key or session token is required for \w+\.\w+/);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    }
  });
});

describe('refusals on /graphql are GraphQL responses', () => {
  it('401 for a bad credential, over POST and GET', async () => {
    for (const response of [
      await service.request('POST', '/graphql', { key: 'sk_live_unknown', body: { query: SIGNALS } }),
      await service.request('GET', get(SIGNALS), { key: 'sk_live_unknown' }),
    ]) {
      const error = expectGraphQLError(response, 401, 'unauthorized');
      expect(error.message).toBe('A valid API key or session token is required.');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    }
  });

  it('403 for spent sandbox credits, with the redirect', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
    for (let call = 0; call < 2; call += 1) {
      expect((await service.request('POST', '/graphql', { key, body: { query: SIGNALS } })).status).toBe(200);
    }
    const refused = await service.request('POST', '/graphql', { key, body: { query: SIGNALS } });
    const error = expectGraphQLError(refused, 403, 'trial_limit_reached');
    expect(error.extensions.redirect).toBe('/billing');
  });

  it('429 for the plan rate limit, with Retry-After', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'live' });
    for (let call = 0; call < 60; call += 1) {
      expect((await service.request('GET', get('{ __typename }'), { key })).status).toBe(200);
    }
    const refused = await service.request('POST', '/graphql', { key, body: { query: SIGNALS } });
    expectGraphQLError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('400, 415 and 405 raised before Apollo Server, and the spec media type when the client prefers it', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'live' });
    const send = async (init: RequestInit) => {
      const response = await fetch(`${service.url}/graphql`, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: JSON.parse(text) } as HttpResult;
    };
    const authorization = `Bearer ${key}`;
    const notJson = await send({
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{"query":',
    });
    expectGraphQLError(notJson, 400, 'invalid_parameter');
    const xml = await send({ method: 'POST', headers: { authorization, 'content-type': 'text/xml' }, body: '<q/>' });
    expectGraphQLError(xml, 415, 'invalid_parameter');
    const put = await send({ method: 'PUT', headers: { authorization } });
    expectGraphQLError(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const mutationByGet = await service.request('GET', get('mutation { deleteLead(input: { id: "lead_1" }) { id } }'), {
      key,
    });
    expectGraphQLError(mutationByGet, 405, 'method_not_allowed');
    expect(mutationByGet.headers.get('allow')).toBe('POST');

    const preferred = await service.request('POST', '/graphql', {
      body: { query: SIGNALS },
      headers: { accept: 'application/graphql-response+json, application/json;q=0.9' },
    });
    expect(preferred.status).toBe(401);
    expect(preferred.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(JSON.parse(preferred.text).errors[0].extensions.code).toBe('unauthorized');
  });
});
