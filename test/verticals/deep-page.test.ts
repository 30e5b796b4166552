import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBy } from '../../subgraphs/platform/paging.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { findPage } from '../../subgraphs/platform/deep-page.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

let store: TestDatabases;
let db: Database;
const statements: string[] = [];

beforeAll(async () => {
  store = await createTestDatabases({ sandboxScale: 300, liveScale: 300, onQuery: (sql) => statements.push(sql) });
  db = store.databases.live;
});
afterAll(() => store?.drop());

interface Delegate {
  findMany(args: object): Promise<{ id: number }[]>;
}

/** Every documented sort of every list (docs/api.md), as model fields, and a filter that keeps many ties. */
const LISTS: { model: string; table: string; sorts: string[]; where: object }[] = [
  {
    model: 'company',
    table: 'companies',
    sorts: ['aiScore', 'revenueUsd', 'employees', 'name', 'state', 'id'],
    where: { aiScore: { gte: 40 } },
  },
  {
    model: 'contact',
    table: 'contacts',
    sorts: ['lastName', 'title', 'department', 'companyId', 'id'],
    where: { emailVerified: true },
  },
  {
    model: 'property',
    table: 'properties',
    sorts: [
      'equityPct',
      'estimatedValue',
      'mortgageBalance',
      'lastSaleDate',
      'lastSalePrice',
      'yearBuilt',
      'sqft',
      'id',
    ],
    where: { equityPct: { gte: 20 } },
  },
  {
    model: 'owner',
    table: 'owners',
    sorts: ['propertiesCount', 'portfolioValue', 'name', 'id'],
    where: { absentee: false },
  },
  {
    model: 'attorney',
    table: 'attorneys',
    sorts: ['lastName', 'admittedYear', 'state', 'city', 'verifiedAt', 'id'],
    where: { barStatus: 'active' },
  },
  {
    model: 'firm',
    table: 'firms',
    sorts: ['size', 'name', 'foundedYear', 'hqState', 'id'],
    where: { size: { gte: 2 } },
  },
];

describe('a deep page read ids first (deferred join)', () => {
  for (const list of LISTS) {
    it(`equals the plain OFFSET page of ${list.table} for every sort, both directions, with and without a filter`, async () => {
      const delegate = (db.prisma as unknown as Record<string, Delegate | undefined>)[list.model];
      if (!delegate) throw new Error(`no Prisma model ${list.model}`);
      const rows = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${list.table}`);
      const size = rows[0]?.n ?? 0;
      expect(size).toBeGreaterThan(20);
      for (const field of list.sorts) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const where of [{}, list.where]) {
            const order = orderBy({ field, direction });
            // Offsets at the start, in the middle, across the end and past it.
            for (const skip of [0, 7, Math.floor(size / 2), size - 5, size + 3]) {
              const page = { where, orderBy: order, skip, take: 10 };
              const plain = await delegate.findMany({ where, orderBy: order, skip, take: 10 });
              const deferred = await findPage(
                page,
                {
                  ids: (args) => delegate.findMany({ ...args, select: { id: true } }),
                  rows: (args) => delegate.findMany(args),
                },
                0,
              );
              expect(
                deferred.map((row) => row.id),
                `${list.table} ${field} ${direction} skip ${skip}`,
              ).toEqual(plain.map((row) => row.id));
              expect(deferred).toEqual(plain);
            }
          }
        }
      }
    });
  }

  it('reads only ids with the offset, then the rows by id, past the threshold and not before', async () => {
    const delegate = db.prisma.company;
    const page = { where: {}, orderBy: orderBy({ field: 'aiScore', direction: 'desc' }), skip: 40, take: 5 };
    const read = {
      ids: (args: object) => delegate.findMany({ ...args, select: { id: true } }),
      rows: (args: object) => delegate.findMany(args),
    };
    statements.length = 0;
    await findPage(page, read, 40);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^SELECT "public"\."companies"\."id" FROM .* OFFSET/);
    expect(statements[1]).toMatch(/"id" IN \(/);
    expect(statements[1]).not.toMatch(/ORDER BY|LIMIT/);

    statements.length = 0;
    await findPage(page, read, 41);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/ORDER BY .* OFFSET/);
  });
});
