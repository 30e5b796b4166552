import { getNamedType, isObjectType } from 'graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Builder } from './builder.ts';
import type { RequestContext } from './context.ts';
import { DEFERRED_JOIN_FROM, findPage } from './deep-page.ts';
import { delegateOf } from './model-delegate.ts';
import { joinKeys, planIncludes, withIncludes } from './model-includes.ts';
import { sqlPageReaders } from './model-rows.ts';
import type { SqlPageReaders } from './model-rows.ts';
import { pageInfoSource } from './paging.ts';
import type { OffsetPaging, PageInfoSource, definePageInfo } from './paging.ts';
import { selectedFields } from './selected-fields.ts';
import type { SelectedFields } from './selected-fields.ts';
import { offerCappedCount } from './totals.ts';
import type { Total } from './totals.ts';

/** What a `<Thing>Page` object resolves from: the validated filter, order and offset of one page, and its totals. */
export interface PageSource {
  where: object;
  orderBy: object;
  skip: number;
  take: number;
  pageInfo: PageInfoSource;
}

/** The descriptions of every `<Thing>Page`, including those built without `definePageObject`. */
export const PAGE_DESCRIPTIONS = {
  page: 'One offset page of a list: its items and the paging totals.',
  nodes: 'The items of this page, in the list’s order.',
  pageInfo: 'The page asked for and the totals of the whole list.',
};

/** A page of `where` in `orderBy`; `count` runs only when a client asks for totals. */
export function pageSource(
  where: object,
  orderBy: object,
  paging: OffsetPaging,
  count: () => Promise<Total>,
): PageSource {
  return { where, orderBy, skip: paging.skip, take: paging.perPage, pageInfo: pageInfoSource(paging, count) };
}

/**
 * `<Thing>Page { nodes pageInfo }` over one Prisma model: `nodes` reads through `pg` (model-rows.ts) the fields
 * the GraphQL selection reads (selected-fields.ts), with the relations it includes (model-includes.ts); a
 * selection these cannot read spreads its Prisma query into the page's read. Deferred-join style when the page
 * is deep (deep-page.ts).
 */
export function definePageObject(
  builder: Builder,
  pageInfo: ReturnType<typeof definePageInfo>,
  name: string,
  node: object,
  model: Prisma.ModelName,
) {
  return builder.objectRef<PageSource>(name).implement({
    description: PAGE_DESCRIPTIONS.page,
    fields: (t) => ({
      nodes: t.prismaField({
        type: [node],
        description: PAGE_DESCRIPTIONS.nodes,
        resolve: (
          query: object,
          source: PageSource,
          _args: unknown,
          context: RequestContext,
          info: GraphQLResolveInfo,
        ) => {
          const selected = selectionOf(info);
          const includes = planIncludes(context.db, model, query, selected);
          const fields = includes && selected.fields && new Set([...selected.fields, ...joinKeys(includes)]);
          const sql = includes ? sqlPageReaders(context.db, model, fields) : null;
          if (includes && sql) return readSqlPage(model, source, withIncludes(context.db, model, sql, includes));
          const records = delegateOf(context.db, model);
          return findPage(source, {
            ids: (args) => records.findMany({ ...args, select: { id: true } }),
            rows: (args) => records.findMany({ ...query, ...args }),
          });
        },
      } as never),
      pageInfo: t.field({
        type: pageInfo,
        description: PAGE_DESCRIPTIONS.pageInfo,
        resolve: (source) => source.pageInfo,
      }),
    }),
  });
}

/** What the `nodes` selection reads of its rows; nothing known (whole rows) when its type is not one object. */
function selectionOf(info: GraphQLResolveInfo): SelectedFields {
  const type = getNamedType(info.returnType);
  return isObjectType(type)
    ? selectedFields(type, info.fieldNodes, info.fragments)
    : { fields: null, relations: new Map() };
}

/**
 * A page read through `pg`. A shallow page offers its capped count (totals.ts): when the page's total is resolved
 * beside `nodes`, which happens in the execution's synchronous pass that called this, the count travels in the
 * page's statement. A deep page reads its ids first (deep-page.ts), and its total is counted alone.
 */
async function readSqlPage(model: Prisma.ModelName, source: PageSource, readers: SqlPageReaders) {
  if (source.skip >= DEFERRED_JOIN_FROM) return findPage(source, readers);
  const offer = offerCappedCount(model, source.where);
  // Lets the rest of the synchronous pass run: a `total` beside `nodes` claims the offer in it.
  await null;
  if (!offer.claimed()) return findPage(source, readers);
  const page = readers.rowsCounted(source, offer.limit);
  offer.settle(page.then(({ counted }) => counted));
  return (await page).rows;
}
