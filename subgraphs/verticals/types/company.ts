import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { formatRevenue } from '../../platform/format.ts';
import { formatId, parseId } from '../../platform/ids.ts';
import { defineSort, orderBy, pageInfoSource, resolvePaging } from '../../platform/paging.ts';
import type { SortOrder } from '../../platform/paging.ts';
import { stateCode } from '../../platform/us-states.ts';
import { parseArguments, withoutNulls } from '../../platform/validation.ts';
import { PageInfo, builder } from '../builder.ts';
import { findPage } from '../../platform/deep-page.ts';
import { connectionMaxSize } from './record-page.ts';
import { countTotal } from '../../platform/totals.ts';

export const Company = builder.prismaObject('Company', {
  description: 'A business with its top decision maker; `contacts` lists all of them.',
  fields: (t) => ({
    id: t.string({ resolve: (company) => formatId('company', company.id) }),
    name: t.exposeString('name'),
    industry: t.exposeString('industryName', { description: 'Display name of the industry.' }),
    industryCode: t.exposeString('industry', { description: 'The lower-case token the `industry` filter takes.' }),
    revenue: t.string({ description: 'Formatted, e.g. $12.5M.', resolve: (company) => formatRevenue(company.revenueUsd) }),
    revenueUsd: t.exposeFloat('revenueUsd'),
    employees: t.exposeInt('employees'),
    state: t.exposeString('state'),
    city: t.exposeString('city'),
    website: t.exposeString('website'),
    ticker: t.exposeString('ticker', { nullable: true }),
    foundedYear: t.exposeInt('foundedYear'),
    aiScore: t.exposeInt('aiScore'),
    decisionMaker: t.exposeString('decisionMaker'),
    decisionMakerTitle: t.exposeString('decisionMakerTitle'),
    decisionMakerEmail: t.exposeString('decisionMakerEmail'),
    contacts: t.relation('contacts', { query: { orderBy: { id: 'asc' } } }),
  }),
});

builder.asEntity(Company, {
  key: builder.selection<{ id: string }>('id'),
  // Prisma batches findUnique calls made in the same tick, so N references cost one query.
  resolveReference: ({ id }, context) =>
    context.db.prisma.company.findUnique({ where: { id: parseId('company', id) } }),
});

const CompanySort = defineSort(
  builder,
  'CompanySort',
  { ai_score: 'aiScore', revenue: 'revenueUsd', employees: 'employees', company: 'name', state: 'state', id: 'id' },
  { field: 'aiScore', direction: 'desc' },
);

export const companyFilter = z.object({
  industry: z.string().regex(/^[a-z_]{2,40}$/, 'must be a lower-case industry token such as software').optional(),
  state: stateCode.optional(),
  minScore: z.number().int().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100').optional(),
});

type CompanyFilterArgs = { industry?: string | null; state?: string | null; minScore?: number | null };

/** The one place a company filter becomes a Prisma `where` (lists, connections and report jobs use it). */
export function companyWhere(args: CompanyFilterArgs): Prisma.CompanyWhereInput {
  const filter = parseArguments(companyFilter, withoutNulls(args));
  return { industry: filter.industry, state: filter.state, aiScore: { gte: filter.minScore } };
}

const CompanyPage = builder.objectRef<{ where: Prisma.CompanyWhereInput; sort: SortOrder; skip: number; take: number; pageInfo: ReturnType<typeof pageInfoSource> }>('CompanyPage').implement({
  fields: (t) => ({
    nodes: t.prismaField({
      type: [Company],
      resolve: (query, page, _args, context) =>
        findPage({ ...page, orderBy: orderBy(page.sort) }, {
          ids: (args) => context.db.prisma.company.findMany({ ...args, select: { id: true } }),
          rows: (args) => context.db.prisma.company.findMany({ ...query, ...args }),
        }),
    }),
    pageInfo: t.field({ type: PageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  companies: t.field({
    type: CompanyPage,
    description: 'Companies matching every given filter, one offset page at a time.',
    args: {
      industry: t.arg.string({ required: false }),
      state: t.arg.string({ required: false }),
      minScore: t.arg.int({ required: false }),
      sort: t.arg({ type: CompanySort.ref, required: false }),
      page: t.arg.int({ required: false }),
      perPage: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) => {
      const where = companyWhere(args);
      const paging = resolvePaging({ page: args.page, size: args.perPage });
      return {
        where,
        sort: CompanySort.toOrder(args.sort),
        skip: paging.skip,
        take: paging.perPage,
        pageInfo: pageInfoSource(paging, () => countTotal(context.db, 'Company', where)),
      };
    },
  }),
  companiesConnection: t.prismaConnection({
    type: Company,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same companies as `companies`, paged by cursor (ordered by id).',
    args: {
      industry: t.arg.string({ required: false }),
      state: t.arg.string({ required: false }),
      minScore: t.arg.int({ required: false }),
    },
    resolve: (query, _root, args, context) =>
      context.db.prisma.company.findMany({ ...query, where: companyWhere(args) }),
  }),
  company: t.prismaField({
    type: Company,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.company.findUnique({ ...query, where: { id: parseId('company', args.id) } }),
  }),
}));
