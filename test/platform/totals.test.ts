import { buildSchema, getNamedType, isObjectType } from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env } from '../../subgraphs/platform/config.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { countTotal } from '../../subgraphs/platform/totals.ts';
import { UntranslatableWhereError, whereToSql } from '../../subgraphs/platform/where-sql.ts';
import { attorneyWhere, companyWhere, listWhereCases } from '../support/list-wheres.ts';
import { readsOf } from '../support/statements.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let webhookEndpointId: string;
let context: RequestContext;
let liveKey: string;

beforeAll(async () => {
  service = await startTestService({ liveScale: 300 });
  const db = service.databases.live;
  const { accountId, key } = await service.createKey({ mode: 'live' });
  liveKey = key;
  // webhookDeliveries lists the deliveries of one of the caller's endpoints.
  const endpoint = await db.prisma.webhookEndpoint.create({
    data: { accountId, url: 'https://example.com/hooks', events: ['ping'], secret: 'whsec_test' },
  });
  webhookEndpointId = `wh_${endpoint.id}`;
  context = { viewer: { accountId, plan: 'professional', mode: 'live' }, db, loaders: new Map() };
});
afterAll(() => service?.stop());

const sqlCount = async (sql: string, params: unknown[] = []) =>
  (await service.databases.live.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;

describe('every list where, as SQL, selects what Prisma selects', () => {
  // Each list's where (test/support/list-wheres.ts): the SQL total must equal Prisma's count of the same where
  // (the limit is set past any test table, so the count is exact).
  const cases = () => listWhereCases(() => context);

  it.each(cases())('%s', async (_name, model, build) => {
    const where = await build();
    const db = service.databases.live;
    const delegate = db.prisma[(model.charAt(0).toLowerCase() + model.slice(1)) as 'company'] as unknown as {
      count(args: { where: object }): Promise<number>;
    };
    const expected = await delegate.count({ where });
    expect(await countTotal(db, model, where, 1_000_000)).toEqual({ total: expected, isEstimate: false });
  });

  it('the cases are not all empty: most filters select rows', async () => {
    const db = service.databases.live;
    let nonEmpty = 0;
    for (const [, model, build] of cases())
      if ((await countTotal(db, model, await build(), 1_000_000)).total > 0) nonEmpty++;
    expect(nonEmpty).toBeGreaterThanOrEqual(10);
  });

  it('an operator or relation filter the translator does not know is an error, never a silent fallback', () => {
    const prisma = service.databases.live.prisma;
    expect(() => whereToSql(prisma, 'Company', { name: { contains: 'Acme' } })).toThrow(UntranslatableWhereError);
    expect(() => whereToSql(prisma, 'Contact', { company: { industry: 'software' } })).toThrow(
      UntranslatableWhereError,
    );
    expect(whereToSql(prisma, 'Company', { industry: undefined, aiScore: { gte: undefined } }).from).toBe(
      'FROM "companies"',
    );
    expect(
      whereToSql(prisma, 'Attorney', attorneyWhere({ practiceArea: 'bankruptcy', state: 'NY', verified: true })),
    ).toEqual({
      from:
        'FROM "attorneys" WHERE (verticals_state_practice_areas("attorneys"."state", "attorneys"."practice_areas") @> $1' +
        ' AND "attorneys"."bar_verified" = $2)',
      params: [['NY/Bankruptcy'], true],
    });
  });
});

describe('every list of the schema counts its total through countTotal', () => {
  // Lists are found in the composed schema, so a list added later is covered without editing this test.
  const schema = buildSchema(readFileSync(new URL('../../schema/supergraph.graphql', import.meta.url), 'utf8'));
  const lists = Object.values(schema.getQueryType()!.getFields()).filter((field) => {
    const type = getNamedType(field.type);
    return isObjectType(type) && getNamedType(type.getFields().pageInfo?.type)?.name === 'OffsetPageInfo';
  });
  // Arguments a list needs to answer at all (search's `q` is checked by the resolver, not the schema).
  const NEEDED: Record<string, string> = { ticker: '"AAPL"', q: '"acme"' };

  it('finds the lists', () => {
    expect(lists.map((field) => field.name)).toEqual(
      expect.arrayContaining(['companies', 'contacts', 'signals', 'congressionalTrades', 'leads']),
    );
  });

  it.each(lists.map((field) => [field.name, field] as const))('%s sends no Prisma count', async (name, field) => {
    const needed: Record<string, string> = { ...NEEDED, id: `"${webhookEndpointId}"` };
    const args = field.args
      .filter((arg) => needed[arg.name] || String(arg.type).endsWith('!'))
      .map((arg) => `${arg.name}: ${needed[arg.name] ?? '"x"'}`);
    service.queries.length = 0;
    const operation = `{ ${name}${args.length ? `(${args.join(', ')})` : ''} { pageInfo { total totalPages totalIsEstimate } } }`;
    const data = await service.graphql(operation, {}, liveKey);
    expect(data[name].pageInfo.totalIsEstimate).toBe(false);
    // Prisma names its count `_count$_all`; countTotal's SQL goes through the raw SQL client instead.
    expect(service.queries.filter((sql) => sql.includes('"_count'))).toEqual([]);
  });
});

describe('the exact limit (EXACT_TOTAL_LIMIT and EXACT_TOTAL_RECOUNT_LIMIT, lowered here to 50)', () => {
  const saved = { limit: env.EXACT_TOTAL_LIMIT, recount: env.EXACT_TOTAL_RECOUNT_LIMIT };
  beforeAll(() => {
    env.EXACT_TOTAL_LIMIT = 50;
    env.EXACT_TOTAL_RECOUNT_LIMIT = 50;
  });
  afterAll(() => {
    env.EXACT_TOTAL_LIMIT = saved.limit;
    env.EXACT_TOTAL_RECOUNT_LIMIT = saved.recount;
  });

  it('counts a filter with at most 50 matches exactly', async () => {
    const expected = await sqlCount(`contacts WHERE company_id = 7`);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThanOrEqual(50);
    const response = await service.get('/api/v1/b2b/contacts?company_id=b2b_7&per_page=2', liveKey);
    expect(response.body.pagination).toEqual({
      page: 1,
      per_page: 2,
      total: expected,
      total_pages: Math.ceil(expected / 2),
      total_is_estimate: false,
    });
  });

  it('flags a total past the limit as an estimate above it, and total_pages follows it', async () => {
    expect(await sqlCount('companies')).toBeGreaterThan(50);
    const response = await service.get('/api/v1/b2b/companies?per_page=7', liveKey);
    const { total, total_pages, total_is_estimate } = response.body.pagination;
    expect(total_is_estimate).toBe(true);
    expect(total).toBeGreaterThan(50);
    expect(total_pages).toBe(Math.ceil(total / 7));
    const data = await service.graphql(
      '{ companies(perPage: 7) { pageInfo { total totalPages totalIsEstimate } } }',
      {},
      liveKey,
    );
    expect(data.companies.pageInfo).toEqual({ total, totalPages: total_pages, totalIsEstimate: true });
  });

  it('flags the markets lists too', async () => {
    expect(await sqlCount('signals')).toBeGreaterThan(50);
    const signals = await service.get('/api/signals?limit=5', liveKey);
    expect(signals.body).toMatchObject({ total_is_estimate: true, page: 1 });
    expect(signals.body.total).toBeGreaterThan(50);
    expect(signals.body.pages).toBe(Math.ceil(signals.body.total / 5));
  });

  it('exactly at the limit is still exact; one more is an estimate', async () => {
    const db = service.databases.live;
    const where = companyWhere({});
    const all = await sqlCount('companies');
    expect(await countTotal(db, 'Company', where, all, all)).toEqual({ total: all, isEstimate: false });
    const estimated = await countTotal(db, 'Company', where, all - 1, all - 1);
    expect(estimated.isEstimate).toBe(true);
    expect(estimated.total).toBeGreaterThanOrEqual(all);
  });

  it('gives a flagged estimate again without counting; an exact total is counted every time', async () => {
    const companyReads = async (path: string) => {
      service.queries.length = 0;
      const response = await service.get(path, liveKey);
      return { pagination: response.body.pagination, reads: readsOf(service.queries, 'companies') };
    };
    // A filter of its own, so no earlier test's estimate is remembered for it.
    const estimated = '/api/v1/b2b/companies?min_score=1&per_page=3';
    const first = await companyReads(estimated);
    expect(first.pagination.total_is_estimate).toBe(true);
    expect(first.reads.some((sql) => /count\(|EXPLAIN/.test(sql))).toBe(true);
    const again = await companyReads(estimated);
    expect(again.pagination).toEqual(first.pagination);
    expect(again.reads).toHaveLength(1);
    expect(again.reads[0]).not.toMatch(/count\(|EXPLAIN/);

    const exact = '/api/v1/b2b/contacts?company_id=b2b_7&per_page=2';
    for (let i = 0; i < 2; i++) {
      service.queries.length = 0;
      const response = await service.get(exact, liveKey);
      expect(response.body.pagination.total_is_estimate).toBe(false);
      expect(readsOf(service.queries, 'contacts').some((sql) => sql.includes('count('))).toBe(true);
    }
  });

  it('remembers no estimate when TOTAL_ESTIMATE_TTL_MS is 0', async () => {
    const saved = env.TOTAL_ESTIMATE_TTL_MS;
    env.TOTAL_ESTIMATE_TTL_MS = 0;
    try {
      for (let i = 0; i < 2; i++) {
        service.queries.length = 0;
        const response = await service.get('/api/v1/b2b/companies?min_score=2&per_page=3', liveKey);
        expect(response.body.pagination.total_is_estimate).toBe(true);
        expect(readsOf(service.queries, 'companies').some((sql) => /count\(|EXPLAIN/.test(sql))).toBe(true);
      }
    } finally {
      env.TOTAL_ESTIMATE_TTL_MS = saved;
    }
  });

  it('past the exact limit, counts on up to the recount limit when the estimate is within it', async () => {
    const db = service.databases.live;
    const where = companyWhere({});
    const all = await sqlCount('companies');
    // The planner's estimate of all companies is the analyzed row count: within a recount limit of `all`.
    expect(await countTotal(db, 'Company', where, 50, all)).toEqual({ total: all, isEstimate: false });
    const above = await countTotal(db, 'Company', where, 50, all - 1);
    expect(above.isEstimate).toBe(true);
    expect(above.total).toBeGreaterThanOrEqual(all);
  });
});
