import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
});
afterAll(() => service?.stop());

const COMPANIES_WITH_SIGNALS = `query ($perPage: Int) {
  companies(perPage: $perPage, sort: ID_ASC) {
    nodes { id name ticker contacts { name email } signals(limit: 3) { id ticker sentiment createdAt } }
    pageInfo { total }
  }
}`;

describe('the Company entity across subgraphs', () => {
  it('returns a company’s contacts (verticals) and its signals (markets) in one query', async () => {
    const data = await service.graphql(COMPANIES_WITH_SIGNALS, { perPage: 25 });
    const withTicker = data.companies.nodes.filter((company: { ticker: string | null }) => company.ticker);
    expect(withTicker.length).toBeGreaterThan(0);
    for (const company of data.companies.nodes) {
      expect(company.contacts.length).toBeGreaterThan(0);
      if (!company.ticker) expect(company.signals).toEqual([]);
      for (const signal of company.signals) expect(signal.ticker).toBe(company.ticker);
    }
    // The signals are the newest three of that ticker, as stored.
    const sample = withTicker.find((company: { signals: unknown[] }) => company.signals.length > 0);
    const stored = await service.databases.sandbox.prisma.signal.findMany({
      where: { ticker: sample.ticker },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 3,
    });
    expect(sample.signals.map((signal: { id: string }) => signal.id)).toEqual(stored.map((signal) => signal.id));
  });

  it('takes a constant number of SQL statements, whatever the page size (no N+1)', async () => {
    const count = async (perPage: number) => {
      service.queries.length = 0;
      await service.graphql(COMPANIES_WITH_SIGNALS, { perPage });
      return readsOf(service.queries, 'companies', 'contacts', 'signals').length;
    };
    const five = await count(5);
    const twentyFive = await count(25);
    const hundred = await count(100);
    expect(twentyFive).toBe(five);
    expect(hundred).toBe(five);
    // companies, their count, their contacts, their signals: a handful, never one per company.
    expect(five).toBeLessThanOrEqual(6);
  });

  it('pages by cursor through the Relay connection', async () => {
    const first = await service.graphql(
      `{ companiesConnection(first: 5) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(first.companiesConnection.edges).toHaveLength(5);
    expect(first.companiesConnection.pageInfo.hasNextPage).toBe(true);
    const next = await service.graphql(
      `query ($after: String) { companiesConnection(first: 5, after: $after) { edges { node { id } } } }`,
      { after: first.companiesConnection.pageInfo.endCursor },
    );
    const ids = [...first.companiesConnection.edges, ...next.companiesConnection.edges].map(
      (edge: { node: { id: string } }) => edge.node.id,
    );
    expect(new Set(ids).size).toBe(10);
  });

  it('reports a bad argument with the machine code and the argument, not a stack', async () => {
    const result = await service.graphqlRaw('{ companies(perPage: 500, state: "California") { nodes { id } } }');
    const [error] = result.body.errors;
    expect(error.extensions.code).toBe('invalid_parameter');
    expect(Object.keys(error.extensions.details)).toContain('state');
    expect(JSON.stringify(result.body)).not.toMatch(/stacktrace|\.ts:\d+/);
  });

  it('refuses GraphQL without a key', async () => {
    const response = await service.request('POST', '/graphql', {
      body: { query: '{ companies { pageInfo { total } } }' },
    });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].extensions.code).toBe('unauthorized');
  });
});
