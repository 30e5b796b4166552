import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';

// A page whose total is asked beside its nodes reads both in one statement (totals.ts, offerCappedCount): the
// same rows and the same total as two statements, in one round trip. Whatever the order of the fields, the
// page's position or the path (GraphQL through the gateway, REST), the answer must not change.

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ liveScale: 300 });
  ({ key } = await service.createKey({ mode: 'live' }));
});
afterAll(() => service?.stop());

/** Runs `run` and returns its result with the statements that read the companies table meanwhile. */
async function reading<T>(run: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  service.queries.length = 0;
  const result = await run();
  return { result, reads: readsOf(service.queries, 'companies') };
}

const page = (fields: string, page = 1) =>
  `{ companies(industry: "software", perPage: 5, page: ${page}) { ${fields} } }`;

describe('a page and its total', () => {
  it('are read in one statement when both are asked, with the rows and total of two', async () => {
    const prisma = service.databases.live.prisma;
    const expectedTotal = await prisma.company.count({ where: { industry: 'software' } });
    expect(expectedTotal).toBeGreaterThan(5);
    const both = await reading(() => service.graphql(page('nodes { id } pageInfo { total totalPages }'), {}, key));
    expect(both.reads).toHaveLength(1);
    expect(both.result.companies.pageInfo).toEqual({ total: expectedTotal, totalPages: Math.ceil(expectedTotal / 5) });

    // The total first: it is counted before the page is read, so two statements, and the same answer.
    const totalFirst = await reading(() =>
      service.graphql(page('pageInfo { total totalPages } nodes { id }'), {}, key),
    );
    expect(totalFirst.reads).toHaveLength(2);
    expect(totalFirst.result).toEqual(both.result);

    const nodesOnly = await reading(() => service.graphql(page('nodes { id }'), {}, key));
    expect(nodesOnly.reads).toHaveLength(1);
    expect(nodesOnly.reads[0]).not.toMatch(/count\(/);
    expect(nodesOnly.result.companies.nodes).toEqual(both.result.companies.nodes);

    const totalOnly = await reading(() => service.graphql(page('pageInfo { total }'), {}, key));
    expect(totalOnly.reads).toHaveLength(1);
    expect(totalOnly.result.companies.pageInfo.total).toBe(expectedTotal);
  });

  it('keeps the total of a page past the last, which has no row to carry it', async () => {
    const past = await reading(() => service.graphql(page('nodes { id } pageInfo { total }', 1000), {}, key));
    expect(past.result.companies.nodes).toEqual([]);
    expect(past.result.companies.pageInfo.total).toBe(
      await service.databases.live.prisma.company.count({ where: { industry: 'software' } }),
    );
  });

  it('gives the REST list its page and total in one statement', async () => {
    const rest = await reading(() => service.get('/api/v1/b2b/companies?industry=software&per_page=5', key));
    expect(rest.result.status).toBe(200);
    expect(rest.reads).toHaveLength(1);
    const graph = await service.graphql(page('nodes { id } pageInfo { total }'), {}, key);
    expect(rest.result.body.pagination.total).toBe(graph.companies.pageInfo.total);
    expect(rest.result.body.data.map((company: { id: string }) => company.id)).toEqual(
      graph.companies.nodes.map((company: { id: string }) => company.id),
    );
  });
});
