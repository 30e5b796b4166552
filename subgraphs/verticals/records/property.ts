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
const PropertyType = builder.enumType('PropertyType', {
  description: 'The kind of property.',
  values: {
    single_family: { description: 'A detached single-family house.' },
    condo: { description: 'A condominium unit.' },
    townhouse: { description: 'A townhouse.' },
    multi_family: { description: 'A building of several dwelling units.' },
    land: { description: 'Land without a dwelling (no bedrooms or bathrooms).' },
    commercial: { description: 'A commercial property.' },
  } satisfies Record<(typeof PROPERTY_TYPES)[number], object>,
});

const Property = builder.prismaObject('Property', {
  description: 'A property ownership record with value, mortgage and equity.',
  fields: (t) => ({
    id: t.string({
      description: 'The property’s API id, `prop_<n>`.',
      extensions: reads('id'),
      resolve: (property) => properties.ids.format(property.id),
    }),
    address: t.exposeString('address', { description: 'Street address.' }),
    city: t.exposeString('city', { description: 'City.' }),
    state: t.exposeString('state', { description: 'Two-letter US state code.' }),
    zip: t.exposeString('zip', { description: 'Five-digit ZIP code.' }),
    county: t.exposeString('county', { description: 'County.' }),
    propertyType: t.field({
      type: PropertyType,
      description: 'The kind of property.',
      extensions: reads('propertyType'),
      resolve: (property) => property.propertyType as (typeof PROPERTY_TYPES)[number],
    }),
    bedrooms: t.exposeInt('bedrooms', { nullable: true, description: 'Number of bedrooms; null for land.' }),
    bathrooms: t.exposeFloat('bathrooms', { nullable: true, description: 'Number of bathrooms (2.5: a half bath).' }),
    sqft: t.exposeInt('sqft', { nullable: true, description: 'Living area in square feet.' }),
    yearBuilt: t.exposeInt('yearBuilt', { nullable: true, description: 'Year the building was built.' }),
    estimatedValue: t.exposeFloat('estimatedValue', { description: 'Estimated market value in USD.' }),
    mortgageBalance: t.exposeFloat('mortgageBalance', { description: 'Outstanding mortgage balance in USD.' }),
    equityPct: t.exposeFloat('equityPct', { description: 'Equity as a percent of the estimated value.' }),
    lastSaleDate: t.expose('lastSaleDate', {
      type: 'Date',
      nullable: true,
      description: 'Date of the last sale; null when it never sold.',
    }),
    lastSalePrice: t.exposeFloat('lastSalePrice', { nullable: true, description: 'Price of the last sale in USD.' }),
    ownerId: t.string({
      description: 'API id of the owner, `owner_<n>`.',
      extensions: reads('ownerId'),
      resolve: (property) => owners.ids.format(property.ownerId),
    }),
    ownerName: t.string({
      description: 'The owner’s name.',
      select: { owner: { select: { name: true } } },
      resolve: (property) => property.owner.name,
    }),
    absenteeOwner: t.exposeBoolean('absenteeOwner', {
      description: 'Whether the owner’s mailing address is in another state.',
    }),
    owner: t.relation('owner', { description: 'The property’s owner.' }),
  }),
});

const properties: RecordType = defineRecordType({
  name: 'properties',
  kind: 'property',
  idPrefix: 'prop',
  vertical: 'realestate',
  model: 'Property',
  table: 'properties',
  references: { ownerId: 'owners' },
  graphql: {
    object: Property,
    listDescription: 'Properties matching every given filter, one offset page at a time (highest equity first).',
    filters: {
      state: argument('String', stateCode, { description: 'Properties in this state, a two-letter code.' }),
      city: argument('String', cityName, { description: 'Properties in this city, in any case.' }),
      zip: argument('String', z.string().regex(/^\d{5}$/, 'must be a five-digit ZIP code'), {
        description: 'Properties in this five-digit ZIP code.',
      }),
      propertyType: argument(PropertyType, z.enum(PROPERTY_TYPES), { description: 'Properties of this kind.' }),
      minEquity: argument('Float', percent, { description: 'Properties with `equityPct` of at least this, 0-100.' }),
      maxEquity: argument('Float', percent, { description: 'Properties with `equityPct` of at most this, 0-100.' }),
      minValue: argument('Float', nonNegativeNumber, {
        description: 'Properties with an estimated value of at least this, in USD.',
      }),
      maxValue: argument('Float', nonNegativeNumber, {
        description: 'Properties with an estimated value of at most this, in USD.',
      }),
      ownerId: argument('String', recordIdFilter(owners.ids), {
        description: 'Properties of this owner, `owner_<n>`.',
      }),
      absentee: argument('Boolean', z.boolean(), {
        description: 'Properties whose owner’s mailing address is (true) or is not (false) in another state.',
      }),
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
  },
  rest: {
    fields: {
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
  },
  search: { text: 'address', title: 'address', subtitle: `city || ', ' || state || ' ' || zip` },
  plans: { plan: 'professional' },
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
