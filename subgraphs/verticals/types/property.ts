import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { formatId, parseId } from '../../platform/ids.ts';
import { defineSort } from '../../platform/paging.ts';
import { stateCode } from '../../platform/us-states.ts';
import { parseArguments, withoutNulls } from '../../platform/validation.ts';
import { PageInfo, builder } from '../builder.ts';
import { cityName, nonNegativeNumber, percent, recordIdFilter } from './record-filter.ts';
import { findPage } from '../../platform/deep-page.ts';
import { connectionMaxSize, recordPage } from './record-page.ts';
import type { RecordPage } from './record-page.ts';
import { countTotal } from '../../platform/totals.ts';
import { equalsIgnoringCase } from '../../platform/text-match.ts';

export const PROPERTY_TYPES = ['single_family', 'condo', 'townhouse', 'multi_family', 'land', 'commercial'] as const;
export const PropertyType = builder.enumType('PropertyType', { values: PROPERTY_TYPES });

export const Property = builder.prismaObject('Property', {
  description: 'A property ownership record with value, mortgage and equity.',
  fields: (t) => ({
    id: t.string({ resolve: (property) => formatId('property', property.id) }),
    address: t.exposeString('address'),
    city: t.exposeString('city'),
    state: t.exposeString('state'),
    zip: t.exposeString('zip'),
    county: t.exposeString('county'),
    propertyType: t.field({
      type: PropertyType,
      resolve: (property) => property.propertyType as (typeof PROPERTY_TYPES)[number],
    }),
    bedrooms: t.exposeInt('bedrooms', { nullable: true }),
    bathrooms: t.exposeFloat('bathrooms', { nullable: true }),
    sqft: t.exposeInt('sqft', { nullable: true }),
    yearBuilt: t.exposeInt('yearBuilt', { nullable: true }),
    estimatedValue: t.exposeFloat('estimatedValue'),
    mortgageBalance: t.exposeFloat('mortgageBalance'),
    equityPct: t.exposeFloat('equityPct', { description: 'Equity as a percent of the estimated value.' }),
    lastSaleDate: t.expose('lastSaleDate', { type: 'Date', nullable: true }),
    lastSalePrice: t.exposeFloat('lastSalePrice', { nullable: true }),
    ownerId: t.string({ resolve: (property) => formatId('owner', property.ownerId) }),
    ownerName: t.string({
      select: { owner: { select: { name: true } } },
      resolve: (property) => property.owner.name,
    }),
    absenteeOwner: t.exposeBoolean('absenteeOwner'),
    owner: t.relation('owner'),
  }),
});

const PropertySort = defineSort(
  builder,
  'PropertySort',
  {
    equity_pct: 'equityPct',
    estimated_value: 'estimatedValue',
    mortgage_balance: 'mortgageBalance',
    last_sale_date: 'lastSaleDate',
    last_sale_price: 'lastSalePrice',
    year_built: 'yearBuilt',
    sqft: 'sqft',
    id: 'id',
  },
  { field: 'equityPct', direction: 'desc' },
);

export const propertyFilter = z
  .object({
    state: stateCode.optional(),
    city: cityName.optional(),
    zip: z.string().regex(/^\d{5}$/, 'must be a five-digit ZIP code').optional(),
    propertyType: z.enum(PROPERTY_TYPES).optional(),
    minEquity: percent.optional(),
    maxEquity: percent.optional(),
    minValue: nonNegativeNumber.optional(),
    maxValue: nonNegativeNumber.optional(),
    ownerId: recordIdFilter('owner').optional(),
    absentee: z.boolean().optional(),
  })
  .refine((f) => f.minEquity === undefined || f.maxEquity === undefined || f.minEquity <= f.maxEquity, {
    path: ['maxEquity'],
    message: 'must not be below min_equity',
  })
  .refine((f) => f.minValue === undefined || f.maxValue === undefined || f.minValue <= f.maxValue, {
    path: ['maxValue'],
    message: 'must not be below min_value',
  });

const propertyArgs = builder.args((t) => ({
  state: t.string({ required: false }),
  city: t.string({ required: false }),
  zip: t.string({ required: false }),
  propertyType: t.field({ type: PropertyType, required: false }),
  minEquity: t.float({ required: false }),
  maxEquity: t.float({ required: false }),
  minValue: t.float({ required: false }),
  maxValue: t.float({ required: false }),
  ownerId: t.string({ required: false }),
  absentee: t.boolean({ required: false, description: 'Owned by someone whose mailing address is elsewhere.' }),
}));

/** The one place a property filter becomes a Prisma `where` (lists, connections and report jobs use it). */
export function propertyWhere(args: object): Prisma.PropertyWhereInput {
  const filter = parseArguments(propertyFilter, withoutNulls(args as Record<string, unknown>));
  return {
    state: filter.state,
    city: filter.city ? equalsIgnoringCase(filter.city) : undefined,
    zip: filter.zip,
    propertyType: filter.propertyType,
    equityPct: { gte: filter.minEquity, lte: filter.maxEquity },
    estimatedValue: { gte: filter.minValue, lte: filter.maxValue },
    ownerId: filter.ownerId,
    absenteeOwner: filter.absentee,
  };
}

const PropertyPage = builder.objectRef<RecordPage<Prisma.PropertyWhereInput>>('PropertyPage').implement({
  fields: (t) => ({
    nodes: t.prismaField({
      type: [Property],
      resolve: (query, page, _args, context) =>
        findPage(page, {
          ids: (args) => context.db.prisma.property.findMany({ ...args, select: { id: true } }),
          rows: (args) => context.db.prisma.property.findMany({ ...query, ...args }),
        }),
    }),
    pageInfo: t.field({ type: PageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  properties: t.field({
    type: PropertyPage,
    description: 'Properties matching every given filter, one offset page at a time (highest equity first).',
    args: {
      ...propertyArgs,
      sort: t.arg({ type: PropertySort.ref, required: false }),
      page: t.arg.int({ required: false }),
      perPage: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) =>
      recordPage(propertyWhere(args), PropertySort.toOrder(args.sort), args, (where) =>
        countTotal(context.db, 'Property', where),
      ),
  }),
  propertiesConnection: t.prismaConnection({
    type: Property,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same properties as `properties`, paged by cursor (ordered by id).',
    args: propertyArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.property.findMany({ ...query, where: propertyWhere(args), orderBy: { id: 'asc' } }),
  }),
  property: t.prismaField({
    type: Property,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.property.findUnique({ ...query, where: { id: parseId('property', args.id) } }),
  }),
}));
