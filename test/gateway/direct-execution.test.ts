import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { createExecution } from '../../gateway/execution/execution.ts';
import type { Execution } from '../../gateway/execution/execution.ts';
import { IN_PROCESS_SUBGRAPHS, wholeSubgraphOf } from '../../gateway/execution/whole-subgraph.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REST_QUERY_ROUTES, requiredVariables } from '../support/rest-queries.ts';

/**
 * A query that one in-process subgraph answers whole runs on that subgraph's schema, without the query planner
 * (gateway/execution/execution.ts), whether `execute` runs it or Apollo Server's gateway executor does. The answer
 * must be the planned one, byte for byte: data, errors and status, for every query of the REST tables and for the
 * errors a client can cause.
 */
let store: TestDatabases;
let direct: Execution;
let planned: Execution;

beforeAll(async () => {
  store = await createTestDatabases({ sandboxScale: 300 });
  // Every operation allowed: the guard is tested on its own (test/limits, test/auth); here only execution differs.
  const guard = async () => undefined;
  direct = await createExecution({ directExecution: true, guard });
  planned = await createExecution({ directExecution: false, guard });
});
afterAll(async () => {
  await direct?.apollo.stop();
  await planned?.apollo.stop();
  await store?.drop();
});

const context = (): RequestContext => ({
  viewer: { accountId: 'direct-test', plan: 'institutional', mode: 'sandbox' },
  db: store.databases.sandbox,
  loaders: new Map(),
});

/** The answer of Apollo Server (its gateway executor) or of `execute`, its fields in the order HTTP writes them. */
async function answer(
  execution: Execution,
  query: string,
  variables: Record<string, unknown>,
  via: 'apollo' | 'execute' = 'apollo',
) {
  if (via === 'execute') {
    const { status, result } = await execution.execute({ query, variables }, context());
    return {
      status,
      body: JSON.stringify({ errors: result.errors, data: result.data, extensions: result.extensions }),
    };
  }
  const response = await execution.apollo.executeOperation({ query, variables }, { contextValue: context() });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  const { errors, data, extensions } = response.body.singleResult;
  return { status: response.http.status ?? 200, body: JSON.stringify({ errors, data, extensions }) };
}

const answeredWhole = (query: string) => wholeSubgraphOf(IN_PROCESS_SUBGRAPHS, parse(query))?.name;

/** The planned path's `data` for an operation without variables. */
const plannedData = async (operation: string) => JSON.parse((await answer(planned, operation, {})).body).data;

describe('direct execution of /graphql queries', () => {
  it('answers every query of the REST tables as the planned path does', async () => {
    let whole = 0;
    for (const route of REST_QUERY_ROUTES) {
      const variables = await requiredVariables(route.path, store.databases.sandbox, plannedData);
      if (answeredWhole(route.operation)) whole += 1;
      const [directly, viaPlan, executed] = [
        await answer(direct, route.operation, variables),
        await answer(planned, route.operation, variables),
        await answer(direct, route.operation, variables, 'execute'),
      ];
      expect(directly, `${route.method} ${route.path}`).toEqual(viaPlan);
      expect(executed, `${route.method} ${route.path} through execute`).toEqual(viaPlan);
      expect(viaPlan.body, route.path).toContain('"data"');
    }
    // So the comparison is not vacuous: the direct path answered them (33 of 33 today).
    expect(whole).toBeGreaterThanOrEqual(30);
  });

  it.each([
    ['an unknown record (not_found)', '{ company(id: "b2b_999999999") { id name } }', {}],
    ['a malformed id (invalid_parameter)', '{ company(id: "nope") { id } }', {}],
    ['a page past the limit', 'query ($n: Int) { companies(perPage: $n) { nodes { id } } }', { n: 1000 }],
    ['a variable of the wrong type', 'query ($n: Int) { companies(perPage: $n) { nodes { id } } }', { n: 'x' }],
    ['a missing required variable', 'query ($id: String!) { company(id: $id) { id } }', {}],
    [
      'aliases, fragments and __typename',
      `query { a: companies(perPage: 2, sort: ID_ASC) { nodes { ...C } } b: contacts(perPage: 2) { nodes { __typename id } } }
       fragment C on Company { __typename id name contacts { name } }`,
      {},
    ],
    ['introspection (the API schema, not a subgraph’s)', '{ __schema { queryType { name } types { name } } }', {}],
    ['a type looked up by name', '{ __type(name: "Company") { fields { name } } }', {}],
    [
      '@include',
      'query ($e: Boolean!) { leads: convergenceLeads { ticker purchases @include(if: $e) { id } } }',
      { e: false },
    ],
    [
      'a query across both subgraphs (planned either way)',
      '{ companies(perPage: 3, sort: ID_ASC) { nodes { id contacts { name } signals(limit: 2) { id } } } }',
      {},
    ],
  ])('answers %s as the planned path does', async (_name, query, variables) => {
    const [directly, viaPlan] = [await answer(direct, query, variables), await answer(planned, query, variables)];
    expect(directly).toEqual(viaPlan);
    expect(await answer(direct, query, variables, 'execute')).toEqual(viaPlan);
  });

  it('takes the direct path only for queries one subgraph answers whole', () => {
    expect(answeredWhole('{ companies { nodes { id contacts { name } } } }')).toBe('verticals');
    expect(answeredWhole('{ signals { nodes { id ticker } } }')).toBe('markets');
    expect(answeredWhole('{ companies { nodes { id signals { id } } } }')).toBeUndefined();
    expect(answeredWhole('{ __schema { types { name } } }')).toBeUndefined();
  });
});
