import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { FUZZ } from './fuzz-config.ts';
import { encodeLoosely, hostileBody, hostileJson, hostileString, parameterName, unsafeText } from './hostile-values.ts';
import { expectDocumentedResponse } from './responses.ts';
import { ATTACKED_ROUTES, BODY_FIELDS, REST_ROUTES, WRITE_ROUTES, routeKey } from './route-catalog.ts';
import type { AttackedRoute, WrittenTable } from './route-catalog.ts';

/**
 * The abuse suite: generated values (wrong types, huge numbers, NUL and unpaired surrogates, object member
 * names, SQL and path fragments, 100 kB strings, repeated parameters) in every parameter and body field of
 * every route, over real HTTP with a key whose plan reaches the route. Never a 5xx, always the documented
 * error body, and a refused write leaves its tables as they were. Runs and seed: fuzz-config.ts.
 */
let service: TestService;
let recordIds: string[];

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  const rows = await service.databases.sandbox.sql.query<{ id: number }>(
    'SELECT id FROM companies ORDER BY id LIMIT 3',
  );
  recordIds = rows.map((row) => `b2b_${row.id}`);
});
afterAll(() => service?.stop());

/**
 * One property per route, each with its share of a kind's runs (at least one): every route is attacked however
 * few the runs, where one property drawing the route at random left a third of the routes out at 60 runs. Each
 * route's property runs from FUZZ_SEED plus the route's place in the list (from one seed, a run each, the 58
 * routes drew 3 distinct values), so the FUZZ_SEED in a failing test's title replays it.
 */
function eachRoute<Attack>(
  title: string,
  routes: readonly AttackedRoute[],
  arbitrary: (route: AttackedRoute) => fc.Arbitrary<Attack>,
  check: (attack: Attack) => Promise<unknown>,
) {
  const numRuns = Math.ceil(FUZZ.numRuns / routes.length);
  // Each run is one or two requests; the bound leaves room for a loaded machine and for shrinking a failure.
  const timeout = Math.max(60_000, numRuns * 1_000);
  describe(`${title} (FUZZ_SEED=${FUZZ.seed})`, () => {
    routes.forEach((route, index) => {
      test.prop([arbitrary(route)], { seed: FUZZ.seed + index, numRuns })(
        routeKey(route),
        async (attack) => {
          await check(attack);
        },
        timeout,
      );
    });
  });
}

/** A value standing for "the caller's own lead": the run saves one and puts its id in the path. */
const OWN_LEAD = Symbol('own lead');

/** Row counts of the tables a route writes, in the database a sandbox key writes to (keys: the control database). */
async function rowCounts(tables: readonly WrittenTable[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const database = table === 'api_keys' || table === 'accounts' ? service.databases.live : service.databases.sandbox;
    const [row] = await database.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
    counts[table] = row!.count;
  }
  return counts;
}

interface Attack {
  route: AttackedRoute;
  path: Record<string, string | typeof OWN_LEAD>;
  query: [string, string][];
  body?: { json: unknown } | { raw: string };
}

/** Sends one attack with a fresh institutional key (no rate limit or field limit is ever in the way) and checks the answer. */
async function send(attack: Attack): Promise<number> {
  const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
  let path = attack.route.path;
  for (const [name, value] of Object.entries(attack.path)) {
    const text = value === OWN_LEAD ? await saveLead(key) : value;
    path = path.replace(`:${name}`, encodeLoosely(text));
  }
  const query = attack.query.map(([name, value]) => `${encodeLoosely(name)}=${encodeLoosely(value)}`).join('&');
  const url = `${path}${query ? `?${query}` : ''}`;
  const body = attack.body && ('raw' in attack.body ? attack.body.raw : JSON.stringify(attack.body.json));
  const before = await rowCounts(attack.route.writes);
  const response = await fetch(`${service.url}${url}`, {
    method: attack.route.method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  const text = await response.text();
  const request = `${attack.route.method} ${url.slice(0, 300)}${body !== undefined ? `\n${body.slice(0, 300)}` : ''}`;
  expectDocumentedResponse({
    request,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
  });
  if (response.status >= 400)
    expect(await rowCounts(attack.route.writes), `${request}\n→ ${response.status}: wrote rows`).toEqual(before);
  return response.status;
}

async function saveLead(key: string): Promise<string> {
  const saved = await service.request('POST', '/api/v1/leads', { key, body: { record_id: recordIds[0] } });
  expect(saved.status).toBe(201);
  return saved.body.data.id as string;
}

/** Plausible path values, so attacks on the query or body reach the route's handler. */
const plausiblePath = (route: AttackedRoute) =>
  fc.record(
    Object.fromEntries(
      route.params.map((name) => [
        name,
        fc.constantFrom('b2b_1', 'AAPL', 'lead_1', '2026-01-01', 'rpt_1', 'wh_1', 'whd_1'),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;

const leadsPath = (route: AttackedRoute) => route.path.startsWith('/api/v1/leads/');

describe('the route catalog', () => {
  it('lists the body fields of every REST route that takes a body, and no route that is gone', () => {
    const withBody = REST_ROUTES.filter((route) => route.body).map(routeKey);
    expect(withBody.filter((key) => !BODY_FIELDS[key])).toEqual([]);
    const known = new Set(REST_ROUTES.map(routeKey));
    expect(Object.keys(BODY_FIELDS).filter((key) => !known.has(key))).toEqual([]);
    expect(WRITE_ROUTES.length).toBeGreaterThanOrEqual(8);
  });
});

describe('abuse of every route', () => {
  eachRoute(
    'query parameters: never a 5xx, always the error body, nothing written',
    ATTACKED_ROUTES,
    (route) =>
      fc.record({
        route: fc.constant(route),
        path: plausiblePath(route),
        // Repeated names happen when the same name is drawn twice.
        query: fc.array(fc.tuple(parameterName(route.query), hostileString), { minLength: 1, maxLength: 4 }),
      }),
    send,
  );

  eachRoute(
    'path parameters: never a 5xx, always the error body, nothing written',
    ATTACKED_ROUTES.filter((route) => route.params.length > 0),
    (route) =>
      fc.record({
        route: fc.constant(route),
        path: fc.record(
          Object.fromEntries(
            route.params.map((name) => [
              name,
              leadsPath(route) ? fc.oneof(hostileString, fc.constant(OWN_LEAD)) : hostileString,
            ]),
          ),
        ) as fc.Arbitrary<Record<string, string | typeof OWN_LEAD>>,
        query: fc.constant([] as [string, string][]),
      }),
    send,
  );

  eachRoute(
    'JSON bodies: never a 5xx, always the error body, nothing written on refusal',
    ATTACKED_ROUTES.filter((route) => route.body.length > 0),
    (route) =>
      fc.record({
        route: fc.constant(route),
        path: fc.record(Object.fromEntries(route.params.map((name) => [name, fc.constant(OWN_LEAD)]))) as fc.Arbitrary<
          Record<string, typeof OWN_LEAD>
        >,
        query: fc.constant([] as [string, string][]),
        body: fc.oneof(
          { arbitrary: hostileBody(route.body).map((json) => ({ json })), weight: 8 },
          { arbitrary: hostileJson.map((json) => ({ json })), weight: 1 },
          { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((raw) => ({ raw })), weight: 1 },
        ),
      }),
    send,
  );

  eachRoute(
    'GraphQL variables with NUL or an unpaired surrogate: a 400 invalid_parameter, nothing written',
    ATTACKED_ROUTES.filter((route) => route.operation && route.variables.length > 0),
    (route) =>
      fc.record({
        route: fc.constant(route),
        variable: fc.constantFrom(...route.variables),
        value: unsafeText,
        viaGet: fc.boolean(),
      }),
    async ({ route, variable, value, viaGet }) => {
      const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
      const variables = { [variable]: value };
      const before = await rowCounts(route.writes);
      // GET carries the variables as JSON text in the query string (escaped), POST in the JSON body; mutations only POST.
      const get = viaGet && route.operation!.trimStart().startsWith('query');
      const response = get
        ? await service.request(
            'GET',
            `/graphql?query=${encodeURIComponent(route.operation!)}&variables=${encodeURIComponent(JSON.stringify(variables))}`,
            {
              key,
              headers: { 'apollo-require-preflight': 'true' },
            },
          )
        : await service.request('POST', '/graphql', { key, body: { query: route.operation, variables } });
      const context = `${route.method} ${route.path} $${variable}=${JSON.stringify(value)} via ${get ? 'GET' : 'POST'}\n→ ${response.status} ${response.text.slice(0, 300)}`;
      expect(response.status, context).toBe(400);
      expect(response.body.errors?.[0]?.extensions, context).toEqual({
        code: 'invalid_parameter',
        details: { [variable]: expect.any(String) },
      });
      expect(await rowCounts(route.writes), context).toEqual(before);
    },
  );
});
