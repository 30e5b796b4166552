import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { stateCode } from '../../platform/us-states.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { nonNegativeNumber } from '../record-type/filters.ts';
import { relatedLimit } from '../record-type/page.ts';

const OWNER_TYPES = ['individual', 'llc', 'trust', 'corporation'] as const;
const OwnerType = builder.enumType('OwnerType', { values: OWNER_TYPES });

const Owner = builder.prismaObject('Owner', {
  description: 'A property owner (person, LLC, trust or corporation) with mailing address and portfolio.',
  fields: (t) => ({
    id: t.string({ resolve: (owner) => owners.ids.format(owner.id) }),
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

const owners: RecordType = defineRecordType({
  name: 'owners',
  kind: 'owner',
  idPrefix: 'owner',
  vertical: 'realestate',
  model: 'Owner',
  table: 'owners',
  object: Owner,
  listDescription: 'Property owners matching every given filter, one offset page at a time (largest portfolios first).',
  filters: {
    ownerType: argument(OwnerType, z.enum(OWNER_TYPES)),
    minProperties: argument('Int', z.number().int('must be an integer').min(1, 'must be 1 or more')),
    minPortfolioValue: argument('Float', nonNegativeNumber),
    absentee: argument('Boolean', z.boolean()),
    state: argument('String', stateCode, { description: 'State of the mailing address.' }),
  },
  where: (filter) => ({
    ownerType: filter.ownerType,
    propertiesCount: { gte: filter.minProperties },
    portfolioValue: { gte: filter.minPortfolioValue },
    absentee: filter.absentee,
    mailingState: filter.state,
  }),
  sorts: { properties_count: 'propertiesCount', portfolio_value: 'portfolioValue', name: 'name', id: 'id' },
  defaultSort: { field: 'propertiesCount', direction: 'desc' },
  restFields: {
    id: 'id',
    name: 'name',
    owner_type: 'ownerType',
    mailing_address: 'mailingAddress',
    mailing_city: 'mailingCity',
    mailing_state: 'mailingState',
    mailing_zip: 'mailingZip',
    phone: 'phone',
    email: 'email',
    properties_count: 'propertiesCount',
    portfolio_value: 'portfolioValue',
    absentee: 'absentee',
  },
  search: { text: 'name', title: 'name', subtitle: `mailing_city || ', ' || mailing_state` },
  plan: 'professional',
});

export default owners;
