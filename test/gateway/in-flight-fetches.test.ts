import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../gateway/auth/api-keys.ts';
import { AuthenticatedDataSource } from '../../gateway/execution/remote-data-source.ts';
import { InFlightFetches } from '../../gateway/execution/in-flight-fetches.ts';
import type { SubgraphResponse } from '../../gateway/execution/in-flight-fetches.ts';
import { CachedLocalDataSource } from '../../gateway/execution/local-data-source.ts';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import type { SubgraphName } from '../../subgraphs/index.ts';
import { createSubgraphServer as createMarkets } from '../../subgraphs/markets/server.ts';
import { createSubgraphServer as createVerticals } from '../../subgraphs/verticals/server.ts';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import type { Mode } from '../../subgraphs/platform/database.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';

const SECRET = 'a-shared-secret-of-the-gateway';
// With a relation: the page and its total are read through `pg`, the contacts through Prisma; `onQuery` sees both.
const PAGE =
  'query Page($industry: String) { companies(industry: $industry, perPage: 5, sort: ID_ASC) { nodes { id name contacts { name } } pageInfo { total } } }';
const WATCHLIST = 'query Watchlist { watchlist { ticker companyName } }';
const ADD =
  'mutation Add($ticker: String) { addWatchlistEntry(input: { ticker: $ticker, companyName: "Acme" }) { created } }';
const REMOVE = 'mutation Remove($ticker: String!) { removeWatchlistEntry(input: { ticker: $ticker }) { ticker } }';

let store: TestDatabases;
/** Every SQL statement the subgraphs sent: an execution of a subgraph operation shows as its statements. */
const statements: string[] = [];
let accounts: [string, string];
const apps: FastifyInstance[] = [];
const urls = {} as Record<SubgraphName, string>;

beforeAll(async () => {
  store = await createTestDatabases({ sandboxScale: 30, onQuery: (sql) => statements.push(sql) });
  accounts = [
    (await createAccount(store.databases.live, 'institutional')).id,
    (await createAccount(store.databases.live, 'institutional')).id,
  ];
  for (const [name, create] of [
    ['verticals', createVerticals],
    ['markets', createMarkets],
  ] as const) {
    const app = await create({ databases: store.databases, secret: SECRET });
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    const address = app.server.address();
    urls[name] = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await store?.drop();
});

/** Sandbox by default: the sandbox database holds the seeded records, the live one none. */
const viewer = (account: 0 | 1, mode: Mode = 'sandbox'): Viewer => ({
  accountId: accounts[account],
  plan: 'institutional',
  mode,
});

/** One fetch as the gateway's query plan sends it, with the request context the gateway built for the client. */
function fetchOf(
  viewerOf: Viewer,
  query: string,
  variables: Record<string, unknown> = {},
): GraphQLDataSourceProcessOptions<RequestContext> {
  const context: RequestContext = { viewer: viewerOf, db: store.databases[viewerOf.mode], loaders: new Map() };
  return {
    kind: 'incoming operation',
    request: { query, variables, operationName: /^\w+ (\w+)/.exec(query)?.[1] },
    context,
    incomingRequestContext: {} as never,
  } as GraphQLDataSourceProcessOptions<RequestContext>;
}

const uniqueTicker = () => `T${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

/** Statements of the operations' tables the subgraphs sent while `run` ran. */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  statements.length = 0;
  const result = await run();
  return { result, statements: readsOf(statements, 'companies', 'contacts', 'watchlist_entries').length };
}

const sources: Record<string, (name: SubgraphName, inFlight: InFlightFetches) => GraphQLDataSource<RequestContext>> = {
  'in process': (name, inFlight) => new CachedLocalDataSource(SUBGRAPHS[name], name, inFlight),
  'over HTTP': (name, inFlight) => new AuthenticatedDataSource(urls[name], SECRET, name, inFlight),
};

describe.each(Object.entries(sources))('identical subgraph fetches in flight, %s', (_, create) => {
  const setup = () => {
    const inFlight = new InFlightFetches();
    return { inFlight, verticals: create('verticals', inFlight), markets: create('markets', inFlight) };
  };

  it('share one execution for two concurrent requests of the same account, each with its own copy of the data', async () => {
    const { inFlight, verticals } = setup();
    const alone = await counted(() => verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })));
    expect(alone.result.errors).toBeUndefined();
    expect(alone.statements).toBeGreaterThan(0);

    const pair = await counted(() =>
      Promise.all([
        verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })),
        verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })),
      ]),
    );
    expect(pair.statements).toBe(alone.statements);
    const [first, second] = pair.result;
    expect(first!.data).toEqual(alone.result.data);
    expect(second!.data).toEqual(alone.result.data);
    // The gateway merges later fetches into what it receives: waiters must not share objects.
    expect(first!.data).not.toBe(second!.data);
    (first!.data as { companies: { nodes: object[] } }).companies.nodes.length = 0;
    expect(second!.data).toEqual(alone.result.data);
    // Nothing is kept once the execution settles: the next request executes again.
    expect(inFlight.size).toBe(0);
    const again = await counted(() => verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })));
    expect(again.statements).toBe(alone.statements);
  });

  it('runs each of two identical concurrent requests on its own when sharing is off (DEDUPLICATE_IN_FLIGHT=off)', async () => {
    const inFlight = new InFlightFetches({ enabled: false });
    const verticals = create('verticals', inFlight);
    const alone = await counted(() => verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })));
    const pair = await counted(() =>
      Promise.all([
        verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })),
        verticals.process(fetchOf(viewer(0), PAGE, { industry: 'software' })),
      ]),
    );
    expect(pair.statements).toBe(2 * alone.statements);
    expect(pair.result[0]!.data).toEqual(alone.result.data);
    expect(pair.result[1]!.data).toEqual(alone.result.data);
  });

  it('does not share between accounts, modes or variables', async () => {
    const { verticals, markets } = setup();
    for (const [a, b] of [
      [fetchOf(viewer(0), PAGE, { industry: 'software' }), fetchOf(viewer(1), PAGE, { industry: 'software' })],
      [fetchOf(viewer(0), PAGE, { industry: 'software' }), fetchOf(viewer(0, 'live'), PAGE, { industry: 'software' })],
      [fetchOf(viewer(0), PAGE, { industry: 'software' }), fetchOf(viewer(0), PAGE, { industry: 'utilities' })],
    ]) {
      // Each alone first: an empty page reads no relations, so the two may differ.
      const each =
        (await counted(() => verticals.process(a!))).statements +
        (await counted(() => verticals.process(b!))).statements;
      const pair = await counted(() => Promise.all([verticals.process(a!), verticals.process(b!)]));
      expect(pair.statements).toBe(each);
    }
    // Each account reads its own watchlist even when both ask at the same moment.
    const ticker = uniqueTicker();
    await markets.process(fetchOf(viewer(1), ADD, { ticker }));
    const tickersOf = (response: { data?: unknown }) =>
      (response.data as { watchlist: { ticker: string }[] }).watchlist.map((entry) => entry.ticker);
    const [mine, theirs] = await Promise.all([
      markets.process(fetchOf(viewer(0), WATCHLIST)),
      markets.process(fetchOf(viewer(1), WATCHLIST)),
    ]);
    expect(tickersOf(mine)).not.toContain(ticker);
    expect(tickersOf(theirs)).toContain(ticker);
    // Sandbox keys read the sandbox database (seeded), live keys the live one (empty here).
    const [sandbox, live] = await Promise.all([
      verticals.process(fetchOf(viewer(0), PAGE)),
      verticals.process(fetchOf(viewer(0, 'live'), PAGE)),
    ]);
    const stored = await store.databases.sandbox.prisma.company.findMany({
      orderBy: { id: 'asc' },
      take: 5,
      select: { name: true },
    });
    expect(stored).toHaveLength(5);
    expect(
      (sandbox.data as { companies: { nodes: { name: string }[] } }).companies.nodes.map(({ name }) => ({ name })),
    ).toEqual(stored);
    expect(live.data).toEqual({ companies: { nodes: [], pageInfo: { total: 0 } } });
  });

  it('never shares a mutation', async () => {
    const { markets } = setup();
    // Removing a ticker that is not on the watchlist writes nothing and fails alike every time.
    const ticker = uniqueTicker();
    const alone = await counted(() => markets.process(fetchOf(viewer(0), REMOVE, { ticker })));
    expect(alone.statements).toBeGreaterThan(0);
    const pair = await counted(() =>
      Promise.all([
        markets.process(fetchOf(viewer(0), REMOVE, { ticker })),
        markets.process(fetchOf(viewer(0), REMOVE, { ticker })),
      ]),
    );
    expect(pair.statements).toBe(2 * alone.statements);
    for (const response of pair.result) expect(response.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('delivers an error to every waiter', async () => {
    const { inFlight, verticals } = setup();
    const bad = 'query Bad { company(id: "not-an-id") { id } }';
    const alone = await counted(() => verticals.process(fetchOf(viewer(0), bad)));
    expect(alone.result.errors?.length).toBeGreaterThan(0);
    const pair = await Promise.all([
      verticals.process(fetchOf(viewer(0), bad)),
      verticals.process(fetchOf(viewer(0), bad)),
    ]);
    for (const response of pair)
      expect(response.errors?.map((error) => error.message)).toEqual(
        alone.result.errors?.map((error) => error.message),
      );
    expect(inFlight.size).toBe(0);
  });
});

describe('InFlightFetches', () => {
  /** An execution that runs until the test settles it. */
  function gate() {
    let settle!: { resolve: (value: SubgraphResponse) => void; reject: (error: Error) => void };
    const response = new Promise<SubgraphResponse>((resolve, reject) => (settle = { resolve, reject }));
    let runs = 0;
    return { settle, execute: () => ((runs += 1), response), runs: () => runs };
  }

  it('delivers a failed execution to every waiter, then forgets it', async () => {
    const inFlight = new InFlightFetches();
    const failing = gate();
    const waiters = [
      inFlight.fetch('verticals', fetchOf(viewer(0), PAGE), failing.execute),
      inFlight.fetch('verticals', fetchOf(viewer(0), PAGE), failing.execute),
    ];
    failing.settle.reject(new Error('subgraph failed'));
    const results = await Promise.allSettled(waiters);
    expect(failing.runs()).toBe(1);
    expect(
      results.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : 'fulfilled')),
    ).toEqual(['subgraph failed', 'subgraph failed']);
    expect(inFlight.size).toBe(0);
  });

  it('lets a query sent after a mutation completed run anew, even if an identical one sent before is still running', async () => {
    const inFlight = new InFlightFetches();
    const before = gate();
    const earlier = inFlight.fetch('markets', fetchOf(viewer(0), WATCHLIST), before.execute);
    await inFlight.fetch('markets', fetchOf(viewer(0), ADD, { ticker: 'ACME' }), async () => ({
      data: { addWatchlistEntry: { created: true } },
    }));
    const after = gate();
    const later = inFlight.fetch('markets', fetchOf(viewer(0), WATCHLIST), after.execute);
    expect(after.runs()).toBe(1);
    // Without the mutation in between, the same query joins.
    const joined = inFlight.fetch('markets', fetchOf(viewer(0), WATCHLIST), after.execute);
    expect(after.runs()).toBe(1);
    before.settle.resolve({ data: { watchlist: [] } });
    after.settle.resolve({ data: { watchlist: [{ ticker: 'ACME' }] } });
    expect((await earlier).data).toEqual({ watchlist: [] });
    expect((await later).data).toEqual({ watchlist: [{ ticker: 'ACME' }] });
    expect((await joined).data).toEqual({ watchlist: [{ ticker: 'ACME' }] });
  });

  it('fails every waiter of a subgraph that cannot be reached', async () => {
    const inFlight = new InFlightFetches();
    // A port that was free a moment ago: nothing listens on it.
    const app = await createVerticals({ databases: store.databases, secret: SECRET });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
    await app.close();
    const source = new AuthenticatedDataSource(url, SECRET, 'verticals', inFlight);
    const results = await Promise.allSettled([
      source.process(fetchOf(viewer(0), PAGE)),
      source.process(fetchOf(viewer(0), PAGE)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(inFlight.size).toBe(0);
  });
});

describe('the gateway under concurrent identical federated queries', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ sandboxScale: 100 });
  });
  afterAll(() => service?.stop());

  it('answers every client in full, as it answers one alone', async () => {
    const query = `{ companies(perPage: 25, sort: ID_ASC) { nodes { id name ticker contacts { name } signals(limit: 3) { id } } pageInfo { total } } }`;
    const { key } = await service.createKey();
    const alone = await service.graphql(query, {}, key);
    expect(alone.companies.nodes.some((company: { signals: unknown[] }) => company.signals.length > 0)).toBe(true);
    const many = await Promise.all(Array.from({ length: 8 }, () => service.graphql(query, {}, key)));
    for (const data of many) expect(data).toEqual(alone);
  });
});
