import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_RULES } from '../../gateway/auth/plan-access.ts';
import { RECORD_TYPES } from '../../subgraphs/index.ts';
import { startTestService } from '../support/service.ts';
import type { HttpResult, TestService } from '../support/service.ts';
import { readFileSync } from 'node:fs';

/** Starts counting at the beginning of a minute window, so a test's calls are not split across two. */
function expectRateLimitHeaders(response: HttpResult, limit: number, remaining: number) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  // When the oldest counted call leaves the sliding minute (a slot frees).
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThan(Date.now() / 1000);
  expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
}

describe('plans and per-minute rate limits (scheme B)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.stop());

  it('lets each plan reach what the table allows and answers the rest with the documented 403', async () => {
    const forbidden = {
      error: 'plan_required',
      message:
        'Business, real-estate and legal records, universal search, leads (/api/v1) require the professional plan or higher; your plan is analyst.',
      redirect: '/billing',
    };
    for (const plan of ['analyst', 'professional', 'institutional'] as const) {
      const { key } = await service.createKey({ plan, mode: 'sandbox' });
      const signals = await service.get('/api/signals', key);
      expect(signals.status, `${plan} /api/signals`).toBe(200);
      const companies = await service.get('/api/v1/b2b/companies', key);
      const graphql = await service.request('POST', '/graphql', {
        key,
        body: { query: '{ companies { nodes { id } } }' },
      });
      if (plan === 'analyst') {
        expect(companies.status).toBe(403);
        expect(companies.body).toEqual(forbidden);
        expect(companies.headers.get('x-ratelimit-limit')).toBe('60');
        expect(graphql.status).toBe(403);
        expect(graphql.body.data).toBeUndefined();
        expect(graphql.body.errors).toEqual([
          { message: forbidden.message, extensions: { code: 'plan_required', redirect: '/billing' } },
        ]);
        // Fields reached through fragments are governed too.
        const spread = await service.request('POST', '/graphql', {
          key,
          body: { query: '{ ...F } fragment F on Query { companies { nodes { id } } }' },
        });
        expect(spread.status).toBe(403);
        expect(spread.body.errors[0].extensions.code).toBe('plan_required');
      } else {
        expect(companies.status, `${plan} /api/v1/b2b/companies`).toBe(200);
        expect(graphql.status).toBe(200);
        expect(graphql.body.errors).toBeUndefined();
      }
    }
  });

  it('documents every rule of the plan table in docs/api.md', () => {
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Plans and limits'));
    // The restricted rules; the open ones are summed up as "everything else". A record type's own coordinates
    // follow from its model file and are documented as a pattern, so a new record type needs no edit here.
    const fromRecordTypes = new Set(
      RECORD_TYPES.flatMap((type) => [
        `Query.${type.list}`,
        `Query.${type.connection}`,
        `Query.${type.one}`,
        `${type.model}.*`,
        ...Object.keys(type.fieldPlans).map((field) => `${type.model}.${field}`),
      ]),
    );
    expect(section).toContain('every record type');
    for (const rule of PLAN_RULES.filter(({ plan }) => plan !== 'analyst')) {
      for (const coordinate of rule.coordinates.filter((name) => !fromRecordTypes.has(name))) {
        expect(section, coordinate).toContain(`\`${coordinate}\``);
      }
    }
  });

  it('allows an analyst 60 calls a minute, with the headers on each, and refuses the 61st with a 429', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'live' });
    for (let call = 1; call <= 60; call += 1) {
      const response = await service.get('/api/signals?limit=1', key);
      expect(response.status, `call ${call}`).toBe(200);
      expectRateLimitHeaders(response, 60, 60 - call);
    }
    const refused = await service.get('/api/signals?limit=1', key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limited',
      message: expect.stringMatching(/^Rate limit of 60 requests exceeded; retry in \d+ seconds\.$/),
    });
    expectRateLimitHeaders(refused, 60, 0);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.message).toContain(`retry in ${retryAfter} seconds`);
    // GraphQL shares the account's limit, and refused calls are not metered.
    const graphql = await service.request('POST', '/graphql', { key, body: { query: '{ __typename }' } });
    expect(graphql.status).toBe(429);
    await service.app.usageMeter.flush(); // live counts are written about once a second; write them now
    const [usage] = await service.databases.live.sql.query<{ calls: number }>(
      `SELECT sum(calls)::int AS calls FROM usage_counters WHERE mode = 'live' AND account_id = (SELECT account_id FROM api_keys WHERE prefix = $1)`,
      [key.slice(0, 12)],
    );
    expect(usage!.calls).toBe(60);
  });

  it('puts the professional and institutional limits in the headers', async () => {
    for (const [plan, limit] of [
      ['professional', 300],
      ['institutional', 1000],
    ] as const) {
      const { key } = await service.createKey({ plan, mode: 'sandbox' });
      const response = await service.get('/api/signals?limit=1', key);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(limit - 1));
    }
  });

  it('sends the rate-limit headers on error responses of authenticated requests too', async () => {
    const { key } = await service.createKey({ plan: 'professional', mode: 'sandbox' });
    const response = await service.get('/api/signals?limit=-5', key);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-ratelimit-limit')).toBe('300');
    expect(response.headers.get('x-usage-calls')).toBe('1');
  });

  it('refuses a too-deep and a too-costly query before it runs, with a 400 naming the query', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
    service.queries.length = 0;
    const deep =
      '{ companies { nodes { contacts { company { contacts { company { contacts { company { contacts { company { id } } } } } } } } } } }';
    const tooDeep = await service.request('POST', '/graphql', { key, body: { query: deep } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors[0]).toEqual({
      message: 'The query is too deep (11 levels; at most 10).',
      extensions: { code: 'invalid_parameter', details: { query: 'is nested 11 levels deep; the maximum is 10' } },
    });
    const fields =
      'id ticker companyName signalType filingType aiSummary materialityScore sentiment urgent sourceUrl createdAt';
    const costly = `{ ${Array.from({ length: 10 }, (_, index) => `s${index}: signals(limit: 200) { nodes { ${fields} } }`).join(' ')} }`;
    const tooCostly = await service.request('POST', '/graphql', { key, body: { query: costly } });
    expect(tooCostly.status).toBe(400);
    expect(tooCostly.body.errors[0].extensions.code).toBe('invalid_parameter');
    expect(tooCostly.body.errors[0].message).toMatch(/^The query is too costly \(estimated \d+; at most 20000\)/);
    // Nothing reached the database: the refusal came before planning and execution (only the key lookup ran).
    expect(service.queries.filter((sql) => /"signals"|"companies"/.test(sql))).toEqual([]);
    // The same query with a smaller page runs.
    const fine = await service.request('POST', '/graphql', {
      key,
      body: { query: `{ signals(limit: 200) { nodes { ${fields} } } }` },
    });
    expect(fine.status).toBe(200);
  });

  it('keeps GraphiQL’s introspection query within the limits', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const { key } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    const response = await service.request('POST', '/graphql', { key, body: { query: getIntrospectionQuery() } });
    expect(response.status).toBe(200);
    expect(response.body.data.__schema.queryType.name).toBe('Query');
  });
});
