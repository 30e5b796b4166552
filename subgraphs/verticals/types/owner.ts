import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { formatId, parseId } from '../../platform/ids.ts';
import { defineSort } from '../../platform/paging.ts';
import { stateCode } from '../../platform/us-states.ts';
import { parseArguments, withoutNulls } from '../../platform/validation.ts';
import { PageInfo, builder } from '../builder.ts';
import { nonNegativeNumber } from './record-filter.ts';
import { findPage } from '../../platform/deep-page.ts';
import { connectionMaxSize, recordPage, relatedLimit } from './record-page.ts';
import type { RecordPage } from './record-page.ts';
import { countTotal } from '../../platform/totals.ts';

export const OWNER_TYPES = ['individual', 'llc', 'trust', 'corporation'] as const;
export const OwnerType = builder.enumType('OwnerType', { values: OWNER_TYPES });

export const Owner = builder.prismaObject('Owner', {
  description: 'A property owner (person, LLC, trust or corporation) with mailing address and portfolio.',
  fields: (t) => ({
    id: t.string({ resolve: (owner) => formatId('owner', owner.id) }),
    name: t.exposeString('name'),
    ownerType: t.field({ type: OwnerType, resolve: (owner) => owner.ownerType as (typeof OWNER_TYPES)[number] }),
    mailingAddress: t.exposeString('mailingAddress'),
    mailingCity: t.exposeString('mailingCity'),
    mailingState: t.exposeString('mailingState'),
    mailingZip: t.exposeString('mailingZip'),
    phone: t.exposeString('phone'),
    email: t.exposeString('email'),
    propertiesCount: t.exposeInt('propertiesCount'),
    portfolioValue: t.exposeFloat('portfolioValue'),
    absentee: t.exposeBoolean('absentee', { description: 'Owns at least one property outside the mailing state.' }),
    properties: t.relation('properties', {
      description: 'The owner’s properties, highest value first.',
      args: { limit: t.arg.int({ required: false }) },
      query: (args) => ({ take: relatedLimit(args.limit), orderBy: [{ estimatedValue: 'desc' }, { id: 'asc' }] }),
    }),
  }),
});

const OwnerSort = defineSort(
  builder,
  'OwnerSort',
  { properties_count: 'propertiesCount', portfolio_value: 'portfolioValue', name: 'name', id: 'id' },
  { field: 'propertiesCount', direction: 'desc' },
);

export const ownerFilter = z.object({
  ownerType: z.enum(OWNER_TYPES).optional(),
  minProperties: z.number().int('must be an integer').min(1, 'must be 1 or more').optional(),
  minPortfolioValue: nonNegativeNumber.optional(),
  absentee: z.boolean().optional(),
  state: stateCode.optional(),
});

const ownerArgs = builder.args((t) => ({
  ownerType: t.field({ type: OwnerType, required: false }),
  minProperties: t.int({ required: false }),
  minPortfolioValue: t.float({ required: false }),
  absentee: t.boolean({ required: false }),
  state: t.string({ required: false, description: 'State of the mailing address.' }),
}));

/** The one place an owner filter becomes a Prisma `where` (lists, connections and report jobs use it). */
export function ownerWhere(args: object): Prisma.OwnerWhereInput {
  const filter = parseArguments(ownerFilter, withoutNulls(args as Record<string, unknown>));
  return {
    ownerType: filter.ownerType,
    propertiesCount: { gte: filter.minProperties },
    portfolioValue: { gte: filter.minPortfolioValue },
    absentee: filter.absentee,
    mailingState: filter.state,
  };
}

const OwnerPage = builder.objectRef<RecordPage<Prisma.OwnerWhereInput>>('OwnerPage').implement({
  fields: (t) => ({
    nodes: t.prismaField({
      type: [Owner],
      resolve: (query, page, _args, context) =>
        findPage(page, {
          ids: (args) => context.db.prisma.owner.findMany({ ...args, select: { id: true } }),
          rows: (args) => context.db.prisma.owner.findMany({ ...query, ...args }),
        }),
    }),
    pageInfo: t.field({ type: PageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  owners: t.field({
    type: OwnerPage,
    description: 'Property owners matching every given filter, one offset page at a time (largest portfolios first).',
    args: {
      ...ownerArgs,
      sort: t.arg({ type: OwnerSort.ref, required: false }),
      page: t.arg.int({ required: false }),
      perPage: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) =>
      recordPage(ownerWhere(args), OwnerSort.toOrder(args.sort), args, (where) =>
        countTotal(context.db, 'Owner', where),
      ),
  }),
  ownersConnection: t.prismaConnection({
    type: Owner,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same owners as `owners`, paged by cursor (ordered by id).',
    args: ownerArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.owner.findMany({ ...query, where: ownerWhere(args), orderBy: { id: 'asc' } }),
  }),
  owner: t.prismaField({
    type: Owner,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.owner.findUnique({ ...query, where: { id: parseId('owner', args.id) } }),
  }),
}));
