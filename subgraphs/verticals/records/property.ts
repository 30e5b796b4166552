import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { equalsIgnoringCase } from '../../platform/text-match.ts';
import { stateCode } from '../../platform/us-states.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { cityName, nonNegativeNumber, percent, recordIdFilter } from '../record-type/filters.ts';
import owners, { OWNER_PORTFOLIO, PROPERTY_ABSENTEE } from './owner.ts';
import { count, pastYear, text, usState, zipCode } from '../record-type/load-rules.ts';
import { reads } from '../../platform/selected-fields.ts';

const PROPERTY_TYPES = ['single_family', 'condo', 'townhouse', 'multi_family', 'land', 'commercial'] as const;
const PropertyType = builder.enumType('PropertyType', { values: PROPERTY_TYPES });

const Property = builder.prismaObject('Property', {
  description: 'A property ownership record with value, mortgage and equity.',
  fields: (t) => ({
    id: t.string({ extensions: reads('id'), resolve: (property) => properties.ids.format(property.id) }),
    address: t.exposeString('address'),
    city: t.exposeString('city'),
    state: t.exposeString('state'),
    zip: t.exposeString('zip'),
    county: t.exposeString('county'),
    propertyType: t.field({
      type: PropertyType,
      extensions: reads('propertyType'),
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
    ownerId: t.string({ extensions: reads('ownerId'), resolve: (property) => owners.ids.format(property.ownerId) }),
    ownerName: t.string({
      select: { owner: { select: { name: true } } },
      resolve: (property) => property.owner.name,
    }),
    absenteeOwner: t.exposeBoolean('absenteeOwner'),
    owner: t.relation('owner'),
  }),
});

const properties: RecordType = defineRecordType({
  name: 'properties',
  kind: 'property',
  idPrefix: 'prop',
  vertical: 'realestate',
  model: 'Property',
  table: 'properties',
  object: Property,
  listDescription: 'Properties matching every given filter, one offset page at a time (highest equity first).',
  filters: {
    state: argument('String', stateCode),
    city: argument('String', cityName),
    zip: argument('String', z.string().regex(/^\d{5}$/, 'must be a five-digit ZIP code')),
    propertyType: argument(PropertyType, z.enum(PROPERTY_TYPES)),
    minEquity: argument('Float', percent),
    maxEquity: argument('Float', percent),
    minValue: argument('Float', nonNegativeNumber),
    maxValue: argument('Float', nonNegativeNumber),
    ownerId: argument('String', recordIdFilter(owners.ids)),
    absentee: argument('Boolean', z.boolean(), { description: 'Owned by someone whose mailing address is elsewhere.' }),
  },
  ranges: [
    ['minEquity', 'maxEquity'],
    ['minValue', 'maxValue'],
  ],
  where: (filter) => ({
    state: filter.state,
    city: filter.city ? equalsIgnoringCase(filter.city) : undefined,
    zip: filter.zip,
    propertyType: filter.propertyType,
    equityPct: { gte: filter.minEquity, lte: filter.maxEquity },
    estimatedValue: { gte: filter.minValue, lte: filter.maxValue },
    ownerId: filter.ownerId,
    absenteeOwner: filter.absentee,
  }),
  sorts: {
    equity_pct: 'equityPct',
    estimated_value: 'estimatedValue',
    mortgage_balance: 'mortgageBalance',
    last_sale_date: 'lastSaleDate',
    last_sale_price: 'lastSalePrice',
    year_built: 'yearBuilt',
    sqft: 'sqft',
    id: 'id',
  },
  defaultSort: { field: 'equityPct', direction: 'desc' },
  restFields: {
    id: 'id',
    address: 'address',
    city: 'city',
    state: 'state',
    zip: 'zip',
    county: 'county',
    property_type: 'propertyType',
    bedrooms: 'bedrooms',
    bathrooms: 'bathrooms',
    sqft: 'sqft',
    year_built: 'yearBuilt',
    estimated_value: 'estimatedValue',
    mortgage_balance: 'mortgageBalance',
    equity_pct: 'equityPct',
    last_sale_date: 'lastSaleDate',
    last_sale_price: 'lastSalePrice',
    owner_id: 'ownerId',
    owner_name: 'ownerName',
    absentee_owner: 'absenteeOwner',
  },
  search: { text: 'address', title: 'address', subtitle: `city || ', ' || state || ' ' || zip` },
  plan: 'professional',
  references: { ownerId: 'owners' },
  load: {
    required: ['address', 'city', 'state', 'zip', 'property_type', 'estimated_value', 'mortgage_balance'],
    naturalKey: ['address', 'zip'],
    rules: {
      address: text(200),
      city: cityName,
      state: usState,
      zip: zipCode,
      county: text(80),
      property_type: z.enum(PROPERTY_TYPES),
      bedrooms: count,
      bathrooms: nonNegativeNumber,
      sqft: count,
      year_built: pastYear,
      estimated_value: z.number().positive('must be more than 0'),
      mortgage_balance: nonNegativeNumber,
      last_sale_price: nonNegativeNumber,
    },
    // Equity as the generator computes it: the share of the value not owed, to one decimal (negative when under water).
    derive: {
      equity_pct: {
        from: ['estimated_value', 'mortgage_balance'],
        value: ({ estimated_value: value, mortgage_balance: owed }) =>
          typeof value === 'number' && value > 0 && typeof owed === 'number'
            ? Math.round(((value - owed) / value) * 1000) / 10
            : undefined,
      },
    },
    computed: ['equity_pct', 'absentee_owner'],
    afterLoad: [PROPERTY_ABSENTEE, OWNER_PORTFOLIO],
  },
});

export default properties;
