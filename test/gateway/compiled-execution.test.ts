import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, parse } from 'graphql';
import type { DocumentNode, ExecutionResult } from 'graphql';
import { executeCompiled } from '../../gateway/execution/compiled-execution.ts';
import { wholeSubgraphOf } from '../../gateway/execution/whole-subgraph.ts';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import type { SubgraphName } from '../../subgraphs/index.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REST_QUERY_ROUTES, requiredVariables } from '../support/rest-queries.ts';

/**
 * In-process subgraph operations run compiled by graphql-jit once they recur (gateway/execution/compiled-execution.ts).
 * The answer must be graphql-js's, byte for byte, data and errors alike: for every query of the REST tables, the
 * errors a resolver raises, and the `_entities` fetches the query planner sends.
 */
let store: TestDatabases;

beforeAll(async () => {
  store = await createTestDatabases({ sandboxScale: 300 });
});
afterAll(async () => {
  await store?.drop();
});

const context = (db: Database = store.databases.sandbox): RequestContext => ({
  viewer: { accountId: 'compiled-test', plan: 'institutional', mode: 'sandbox' },
  db,
  loaders: new Map(),
});

const subgraphs = (Object.keys(SUBGRAPHS) as SubgraphName[]).map((name) => ({ name, schema: SUBGRAPHS[name] }));

/** The answer as a client receives it, plus what the gateway reads from each error object. */
function asSent(result: ExecutionResult) {
  return {
    json: JSON.stringify(result),
    errors: (result.errors ?? []).map((error) => ({
      // graphql-js gives every error an `extensions` object ({} when the thrown error has none).
      extensions: error.extensions && JSON.stringify(error.extensions),
      code: error.extensions?.code,
      http: JSON.stringify(error.extensions?.http),
      original: error.originalError?.constructor.name,
    })),
  };
}

/**
 * graphql-js's answer, then the compiled one: the first call of a document runs graphql-js too, so the third
 * call is the one graphql-jit answers (and the second the one that compiled it).
 */
async function bothWays(
  subgraph: SubgraphName,
  query: string,
  variables: Record<string, unknown> = {},
  db: Database = store.databases.sandbox,
) {
  const schema = SUBGRAPHS[subgraph];
  const reference = await execute({
    schema,
    document: parse(query),
    variableValues: variables,
    contextValue: context(db),
  });
  const document: DocumentNode = parse(query);
  const answers = [];
  for (let call = 0; call < 3; call += 1) {
    answers.push(await executeCompiled({ schema, document, variableValues: variables, contextValue: context(db) }));
  }
  return { reference: asSent(reference), compiled: answers.map(asSent) };
}

/** graphql-js's `data` for an operation without variables on the subgraph. */
const listData = (subgraph: SubgraphName) => async (operation: string) =>
  (await execute({ schema: SUBGRAPHS[subgraph], document: parse(operation), contextValue: context() })).data;

describe('compiled execution of in-process subgraph operations', () => {
  it('answers every query of the REST tables as graphql-js does', async () => {
    let compared = 0;
    for (const route of REST_QUERY_ROUTES) {
      const subgraph = wholeSubgraphOf(subgraphs, parse(route.operation))?.name as SubgraphName | undefined;
      if (!subgraph) continue;
      const { reference, compiled } = await bothWays(
        subgraph,
        route.operation,
        await requiredVariables(route.path, store.databases.sandbox, listData(subgraph)),
      );
      for (const answer of compiled) expect(answer, `${route.method} ${route.path}`).toEqual(reference);
      expect(reference.json, route.path).toContain('"data"');
      compared += 1;
    }
    // So the comparison is not vacuous: 33 of 33 today. A route that spans both subgraphs runs through the query
    // planner, whose fetches are the _entities case below.
    expect(compared).toBeGreaterThanOrEqual(30);
  });

  it.each([
    ['an unknown record (not_found)', 'verticals', '{ company(id: "b2b_999999999") { id name } }', {}],
    ['a malformed id (invalid_parameter)', 'verticals', '{ company(id: "nope") { id } }', {}],
    ['a page past the limit', 'verticals', 'query ($n: Int) { companies(perPage: $n) { nodes { id } } }', { n: 1000 }],
    [
      'an error beside data (one field fails, the other answers)',
      'verticals',
      '{ a: company(id: "nope") { id } b: companies(perPage: 1, sort: ID_ASC) { nodes { id } } }',
      {},
    ],
    [
      'aliases, fragments and __typename',
      'verticals',
      `query { a: companies(perPage: 2, sort: ID_ASC) { nodes { ...C } } b: contacts(perPage: 2) { nodes { __typename id } } }
       fragment C on Company { __typename id name contacts { name } }`,
      {},
    ],
    [
      '@include and @skip',
      'markets',
      'query ($e: Boolean!) { leads: convergenceLeads { ticker purchases @include(if: $e) { id } score @skip(if: $e) } }',
      { e: false },
    ],
    ['an unknown ticker', 'markets', '{ companyProfile(ticker: "ZZZZZZ") { ticker name } }', {}],
  ])('answers %s as graphql-js does', async (_name, subgraph, query, variables) => {
    const { reference, compiled } = await bothWays(subgraph as SubgraphName, query, variables);
    for (const answer of compiled) expect(answer).toEqual(reference);
  });

  it('gives an error without extensions (a closed database) the shape graphql-js gives it', async () => {
    const closed = await createTestDatabases();
    await closed.databases.sandbox.close();
    try {
      const query = '{ companies(perPage: 2) { nodes { id } } }';
      const { reference, compiled } = await bothWays('verticals', query, {}, closed.databases.sandbox);
      expect(reference.errors).toHaveLength(1);
      for (const answer of compiled) expect(answer).toEqual(reference);
    } finally {
      await closed.drop().catch(() => undefined);
    }
  });

  it('answers the planner’s _entities fetch as graphql-js does', async () => {
    const companies = await store.databases.sandbox.prisma.company.findMany({ take: 3, orderBy: { id: 'asc' } });
    const representations = [
      ...companies.map((company) => ({ __typename: 'Company', id: company.id })),
      { __typename: 'Company', id: 'b2b_999999999' },
    ];
    const query = `query ($representations: [_Any!]!) {
      _entities(representations: $representations) { ... on Company { id signals(limit: 3) { id ticker } } }
    }`;
    const { reference, compiled } = await bothWays('markets', query, { representations });
    for (const answer of compiled) expect(answer).toEqual(reference);
    expect(JSON.parse(reference.json).data._entities).toHaveLength(4);
  });
});
