import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApolloServer } from '@apollo/server';
import { parse } from 'graphql';
import { createGraphQLServer } from '../../gateway/graphql-server.ts';
import { wholeSubgraphOf } from '../../gateway/whole-subgraph.ts';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import type { SubgraphName } from '../../subgraphs/index.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REST_QUERY_ROUTES, requiredVariables } from '../support/rest-queries.ts';

/**
 * /graphql answers a query that one in-process subgraph answers whole on that subgraph's schema, without the
 * query planner (gateway/direct-execution.ts). The answer must be the planned one, byte for byte: data, errors
 * and status, for every query of the REST tables and for the errors a client can cause.
 */
let store: TestDatabases;
let direct: ApolloServer<RequestContext>;
let planned: ApolloServer<RequestContext>;

beforeAll(async () => {
  store = await createTestDatabases({ sandboxScale: 300 });
  direct = (await createGraphQLServer({ directExecution: true })).server;
  planned = (await createGraphQLServer({ directExecution: false })).server;
});
afterAll(async () => {
  await direct?.stop();
  await planned?.stop();
  await store?.drop();
});

const context = (): RequestContext => ({
  viewer: { accountId: 'direct-test', plan: 'institutional', mode: 'sandbox' },
  db: store.databases.sandbox,
  loaders: new Map(),
});

async function answer(server: ApolloServer<RequestContext>, query: string, variables: Record<string, unknown>) {
  const response = await server.executeOperation({ query, variables }, { contextValue: context() });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  return { status: response.http.status ?? 200, body: JSON.stringify(response.body.singleResult) };
}

const subgraphs = (Object.keys(SUBGRAPHS) as SubgraphName[]).map((name) => ({ name, schema: SUBGRAPHS[name] }));
const answeredWhole = (query: string) => wholeSubgraphOf(subgraphs, parse(query))?.name;

/** The planned path's `data` for an operation without variables. */
const plannedData = async (operation: string) => JSON.parse((await answer(planned, operation, {})).body).data;

describe('direct execution of /graphql queries', () => {
  it('answers every query of the REST tables as the planned path does', async () => {
    let whole = 0;
    for (const route of REST_QUERY_ROUTES) {
      const variables = await requiredVariables(route.path, store.databases.sandbox, plannedData);
      if (answeredWhole(route.operation)) whole += 1;
      const [directly, viaPlan] = [
        await answer(direct, route.operation, variables),
        await answer(planned, route.operation, variables),
      ];
      expect(directly, `${route.method} ${route.path}`).toEqual(viaPlan);
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
  });

  it('takes the direct path only for queries one subgraph answers whole', () => {
    expect(answeredWhole('{ companies { nodes { id contacts { name } } } }')).toBe('verticals');
    expect(answeredWhole('{ signals { nodes { id ticker } } }')).toBe('markets');
    expect(answeredWhole('{ companies { nodes { id signals { id } } } }')).toBeUndefined();
    expect(answeredWhole('{ __schema { types { name } } }')).toBeUndefined();
  });
});
