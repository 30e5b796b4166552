import { getNamedType, isLeafType, isNonNullType, isObjectType } from 'graphql';
import type { GraphQLField, GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';
import type * as SelectedFieldsModule from '../../subgraphs/platform/selected-fields.ts';

// A page reads the columns its GraphQL selection reads (selected-fields.ts), not whole rows. A field that reads
// a column it does not declare would answer null or a wrong value: every field of every list page is asked alone
// and must answer exactly as it does from whole rows.

const switches = vi.hoisted(() => ({ narrow: true }));
vi.mock('../../subgraphs/platform/selected-fields.ts', async (original) => {
  const actual = await original<typeof SelectedFieldsModule>();
  return {
    ...actual,
    // Off: every selection reads whole rows, the answer narrowed reads must give.
    selectedFields: (...args: Parameters<typeof actual.selectedFields>) =>
      switches.narrow ? actual.selectedFields(...args) : { fields: null, relations: new Map() },
  };
});

let service: TestService;
let key: string;
let calls = 0;
beforeAll(async () => {
  service = await startTestService({ liveScale: 300 });
  ({ key } = await service.createKey({ mode: 'live' }));
});
afterAll(() => service?.stop());

const optionalArgs = (field: GraphQLField<unknown, unknown>) =>
  field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined);

/** Root list fields of both subgraphs that return a `<Thing>Page` of a Prisma model and need no argument. */
const pages = Object.values(SUBGRAPHS).flatMap((schema) =>
  Object.values(schema.getQueryType()!.getFields()).flatMap((field) => {
    const type = getNamedType(field.type);
    if (!isObjectType(type) || !type.name.endsWith('Page') || !optionalArgs(field)) return [];
    const node = getNamedType(type.getFields().nodes?.type);
    if (!node || !isObjectType(node) || !node.extensions.pothosPrismaModel) return [];
    const size = ['perPage', 'limit'].find((name) => field.args.some((arg) => arg.name === name));
    return [{ root: field.name, node, args: size ? `(${size}: 10)` : '' }];
  }),
);

const selectionOf = (field: GraphQLField<unknown, unknown>) =>
  isLeafType(getNamedType(field.type)) ? field.name : `${field.name} { __typename }`;

const fieldsOf = (node: GraphQLObjectType) => Object.values(node.getFields()).filter(optionalArgs);

async function ask(page: (typeof pages)[number], selection: string, narrow: boolean) {
  // A live key (the live data is seeded), renewed before a plan's per-minute limit.
  if (++calls % 100 === 0) ({ key } = await service.createKey({ mode: 'live' }));
  switches.narrow = narrow;
  try {
    return await service.graphql(`{ ${page.root}${page.args} { nodes { ${selection} } } }`, {}, key);
  } finally {
    switches.narrow = true;
  }
}

describe('a page reads the fields its selection reads', () => {
  it('finds the list pages of both subgraphs', () => {
    expect(pages.map((page) => page.root)).toEqual(
      expect.arrayContaining(['companies', 'contacts', 'firms', 'properties', 'signals', 'congressionalTrades']),
    );
  });

  it.each(pages.map((page) => [page.root, page] as const))(
    '%s: every field alone answers as from whole rows',
    async (root, page) => {
      let answered = 0;
      for (const field of fieldsOf(page.node)) {
        const selection = selectionOf(field);
        const narrowed = await ask(page, selection, true);
        expect(narrowed, `${root} { ${selection} }`).toEqual(await ask(page, selection, false));
        answered += (narrowed[root].nodes as unknown[]).length;
      }
      // Pages of what a new account has none of (leads, reports, watchlist) compare empty pages.
      if (!['leads', 'reports', 'watchlistPage'].includes(root)) expect(answered).toBeGreaterThan(0);
    },
  );

  it('answers as from whole rows when two aliases of one relation read different fields', async () => {
    const firms = pages.find((page) => page.root === 'firms')!;
    const selection = 'id a: attorneys(limit: 1) { name } b: attorneys(limit: 3) { email isPartner } attorneysCount';
    const narrowed = await ask(firms, selection, true);
    expect(narrowed).toEqual(await ask(firms, selection, false));
    expect(narrowed.firms.nodes.some((firm: { b: unknown[] }) => firm.b.length > 1)).toBe(true);
  });

  it('selects only those columns, with the keys that join included relations', async () => {
    service.queries.length = 0;
    await service.graphql('{ companies(perPage: 5) { nodes { name contacts { name } } } }', {}, key);
    const [page, contacts] = [readsOf(service.queries, 'companies'), readsOf(service.queries, 'contacts')];
    expect(page).toHaveLength(1);
    expect(page[0]).toMatch(/"companies"\."name" AS "name"/);
    expect(page[0]).not.toMatch(/"website"/);
    expect(contacts).toHaveLength(1);
    const columns = [...contacts[0]!.matchAll(/"contacts"\."(\w+)" AS "/g)].map((match) => match[1]);
    expect(columns).toEqual(['id', 'company_id', 'first_name', 'last_name']);
  });

  it('reads whole rows for a field that does not say what it reads', async () => {
    service.queries.length = 0;
    // A trade's `committeeOverlap` has its own resolver and no `reads(...)`: it may read anything of its row.
    const trades = pages.find((page) => page.root === 'congressionalTrades')!;
    await service.graphql(`{ congressionalTrades${trades.args} { nodes { committeeOverlap } } }`, {}, key);
    const [page] = readsOf(service.queries, 'congressional_trades');
    expect(page).toMatch(/"congressional_trades"\."ticker" AS "ticker"/);
  });
});
