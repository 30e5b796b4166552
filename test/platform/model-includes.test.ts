import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { findPage } from '../../subgraphs/platform/deep-page.ts';
import { delegateOf } from '../../subgraphs/platform/model-delegate.ts';
import { attachIncludes, planIncludes, withIncludes } from '../../subgraphs/platform/model-includes.ts';
import { sqlPageReaders } from '../../subgraphs/platform/model-rows.ts';
import type { ModelRow } from '../../subgraphs/platform/model-rows.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

// A list page whose selection includes relations (a company's contacts, a property's owner, a firm's first
// attorneys and their count) reads them through `pg` (model-includes.ts): it must return what Prisma's
// findMany with the same `include` returns, row for row and value for value.

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ liveScale: 300 });
  const db = service.databases.live.prisma;
  // An attorney without a firm (the relation is optional) and a firm without attorneys (a count of 0).
  await db.attorney.updateMany({ where: { id: { in: [1, 2] } }, data: { firmId: null } });
  const firm = await db.firm.findFirstOrThrow({ orderBy: { id: 'asc' } });
  await db.firm.create({ data: { ...firm, id: undefined, name: 'Empty & Partners LLP' } });
  // A trade in force and one it superseded: the member's `trades` keeps the first only.
  const [trade] = await db.congressionalTrade.findMany({ where: { bioguideId: { not: null } }, take: 1 });
  expect(trade, 'the sandbox data has a member with trades').toBeDefined();
  const { id: _id, ...copy } = trade!;
  const newer = await db.congressionalTrade.create({ data: { ...copy, naturalKey: 'model-includes-newer' } });
  await db.congressionalTrade.update({ where: { id: trade!.id }, data: { supersededById: newer.id } });
});
afterAll(() => service?.stop());

/** The queries Pothos gives a page's `nodes` for these selections (logged from the GraphQL operations named). */
const cases: [string, Prisma.ModelName, object, object][] = [
  [
    'companies { contacts }',
    'Company',
    { include: { contacts: { orderBy: { id: 'asc' } } } },
    [{ aiScore: 'desc' }, { id: 'desc' }],
  ],
  ['contacts { company }', 'Contact', { include: { company: true } }, [{ id: 'asc' }]],
  ['properties { owner }', 'Property', { include: { owner: true } }, [{ estimatedValue: 'asc' }, { id: 'asc' }]],
  [
    'owners { properties(limit: 2) }',
    'Owner',
    { include: { properties: { take: 2, orderBy: [{ estimatedValue: 'desc' }, { id: 'asc' }] } } },
    [{ id: 'asc' }],
  ],
  ['attorneys { firm }', 'Attorney', { include: { firm: true } }, [{ id: 'asc' }]],
  [
    'firms { attorneys(limit: 2) attorneysCount }',
    'Firm',
    {
      include: {
        attorneys: { take: 2, orderBy: [{ isPartner: 'desc' }, { id: 'asc' }] },
        _count: { select: { attorneys: true } },
      },
    },
    [{ id: 'desc' }],
  ],
  [
    'firms { attorneys { firm } }',
    'Firm',
    { include: { attorneys: { take: 25, orderBy: [{ isPartner: 'desc' }, { id: 'asc' }], include: { firm: true } } } },
    [{ id: 'asc' }],
  ],
];

describe('relations read through pg are the ones Prisma includes', () => {
  it.each(cases)('%s', async (_name, model, query, orderBy) => {
    const db = service.databases.live;
    const plan = planIncludes(db, model, query);
    expect(plan, 'the include is read through pg').not.toBeNull();
    const sql = withIncludes(db, model, sqlPageReaders(db, model)!, plan!);
    const records = delegateOf(db, model);
    const prisma = {
      ids: (args: object) => records.findMany({ ...args, select: { id: true } }) as Promise<{ id: number }[]>,
      rows: (args: object) => records.findMany({ ...query, ...args }) as Promise<ModelRow[]>,
    };
    let related = 0;
    for (const page of [
      { skip: 0, take: 25 },
      { skip: 40, take: 60 },
    ]) {
      const args = { where: {}, orderBy, ...page };
      const expected = await findPage(args, prisma);
      expect(await findPage(args, sql)).toStrictEqual(expected);
      // The deferred join (ids first, then those rows), which deep pages take.
      expect(await findPage(args, sql, 0)).toStrictEqual(expected);
      related += expected.filter(relatedOf).length;
    }
    expect(related, 'the pages hold related rows to compare').toBeGreaterThan(0);
  });

  it('reads a relation keyed by another field than the id: a member’s trades by bioguideId', async () => {
    const db = service.databases.live;
    // Members have no numeric id, so no list page: their trades are included the same way wherever they are.
    const query = {
      include: {
        trades: { where: { supersededById: null }, orderBy: [{ tradeDate: 'desc' }, { id: 'desc' }], take: 3 },
      },
    } satisfies Prisma.MemberFindManyArgs;
    const page = { orderBy: { bioguideId: 'asc' }, take: 60 } as const;
    const expected = await db.prisma.member.findMany({ ...page, ...query });
    const rows = (await db.prisma.member.findMany(page)) as unknown as ModelRow[];
    await attachIncludes(db, 'Member', rows, planIncludes(db, 'Member', query)!);
    expect(rows).toStrictEqual(expected);
    expect(expected.filter((member) => member.trades.length > 0).length).toBeGreaterThan(0);
  });

  it('sets a missing relation to null and an empty one to [] with a count of 0', async () => {
    const db = service.databases.live;
    const plan = planIncludes(db, 'Attorney', { include: { firm: true } })!;
    const [unattached] = await findPage(
      { where: { id: { in: [1] } }, orderBy: [{ id: 'asc' }], skip: 0, take: 1 },
      withIncludes(db, 'Attorney', sqlPageReaders(db, 'Attorney')!, plan),
    );
    expect(unattached!.firm).toBeNull();
    const firms = planIncludes(db, 'Firm', cases[5]![2])!;
    const [empty] = await findPage(
      { where: { name: 'Empty & Partners LLP' }, orderBy: [{ id: 'asc' }], skip: 0, take: 1 },
      withIncludes(db, 'Firm', sqlPageReaders(db, 'Firm')!, firms),
    );
    expect(empty!.attorneys).toEqual([]);
    expect(empty!._count).toEqual({ attorneys: 0 });
  });

  it.each([
    ['a list in no stated order', 'Company', { include: { contacts: true } }],
    ['a select', 'Company', { select: { id: true } }],
    ['an offset inside a relation', 'Company', { include: { contacts: { orderBy: { id: 'asc' }, skip: 1 } } }],
    ['an unknown relation', 'Company', { include: { partners: true } }],
    ['a count of a to-one relation', 'Contact', { include: { _count: { select: { company: true } } } }],
  ] as [string, Prisma.ModelName, object][])('leaves %s to Prisma', (_name, model, query) => {
    expect(planIncludes(service.databases.live, model, query)).toBeNull();
  });
});

/** Does a row hold a related row or a non-zero count (so the comparison is not of empty relations only)? */
function relatedOf(row: ModelRow): boolean {
  return Object.values(row).some(
    (value) =>
      (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') ||
      (value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value)),
  );
}
