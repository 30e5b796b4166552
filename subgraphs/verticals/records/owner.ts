import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { stateCode } from '../../platform/us-states.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { nonNegativeNumber } from '../record-type/filters.ts';
import { relatedLimit } from '../record-type/page.ts';
import { email, text, usState, zipCode } from '../record-type/load-rules.ts';
import { reads } from '../../platform/selected-fields.ts';

/** After owners or properties are loaded from `$1`: their properties' absentee flag, then the owners' portfolios. */
export const PROPERTY_ABSENTEE = `
  UPDATE properties p SET absentee_owner = p.state <> o.mailing_state
    FROM owners o
   WHERE o.id = p.owner_id AND (p.source = $1 OR o.source = $1) AND p.absentee_owner <> (p.state <> o.mailing_state)`;
export const OWNER_PORTFOLIO = `
  UPDATE owners o
     SET properties_count = agg.properties_count, portfolio_value = agg.portfolio_value, absentee = agg.absentee
    FROM (SELECT o2.id, count(p.id)::int AS properties_count, coalesce(sum(p.estimated_value), 0) AS portfolio_value,
                 coalesce(bool_or(p.absentee_owner), false) AS absentee
            FROM owners o2 LEFT JOIN properties p ON p.owner_id = o2.id
           WHERE o2.source = $1 OR o2.id IN (SELECT owner_id FROM properties WHERE source = $1)
           GROUP BY o2.id) agg
   WHERE o.id = agg.id
     AND (o.properties_count, o.portfolio_value, o.absentee) IS DISTINCT FROM (agg.properties_count, agg.portfolio_value, agg.absentee)`;

const OWNER_TYPES = ['individual', 'llc', 'trust', 'corporation'] as const;
const OwnerType = builder.enumType('OwnerType', {
  description: 'The legal form of a property owner.',
  values: {
    individual: { description: 'A person.' },
    llc: { description: 'A limited liability company.' },
    trust: { description: 'A trust.' },
    corporation: { description: 'A corporation.' },
  } satisfies Record<(typeof OWNER_TYPES)[number], object>,
});

const Owner = builder.prismaObject('Owner', {
  description: 'A property owner (person, LLC, trust or corporation) with mailing address and portfolio.',
  fields: (t) => ({
    id: t.string({
      description: 'The owner’s API id, `owner_<n>`.',
      extensions: reads('id'),
      resolve: (owner) => owners.ids.format(owner.id),
    }),
    name: t.exposeString('name', { description: 'The owner’s name: a person’s or an entity’s.' }),
    ownerType: t.field({
      type: OwnerType,
      description: 'The owner’s legal form.',
      extensions: reads('ownerType'),
      resolve: (owner) => owner.ownerType as (typeof OWNER_TYPES)[number],
    }),
    mailingAddress: t.exposeString('mailingAddress', { description: 'Street of the mailing address.' }),
    mailingCity: t.exposeString('mailingCity', { description: 'City of the mailing address.' }),
    mailingState: t.exposeString('mailingState', { description: 'Two-letter state code of the mailing address.' }),
    mailingZip: t.exposeString('mailingZip', { description: 'Five-digit ZIP code of the mailing address.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
    email: t.exposeString('email', { description: 'E-mail address.' }),
    propertiesCount: t.exposeInt('propertiesCount', { description: 'Number of properties the owner has.' }),
    portfolioValue: t.exposeFloat('portfolioValue', {
      description: 'Sum of the estimated values of the owner’s properties, in USD.',
    }),
    absentee: t.exposeBoolean('absentee', { description: 'Owns at least one property outside the mailing state.' }),
    properties: t.relation('properties', {
      description: 'The owner’s properties, highest value first.',
      args: { limit: t.arg.int({ required: false, description: 'How many properties, 1-100 (default 25).' }) },
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
  graphql: {
    object: Owner,
    listDescription:
      'Property owners matching every given filter, one offset page at a time (largest portfolios first).',
    filters: {
      ownerType: argument(OwnerType, z.enum(OWNER_TYPES), { description: 'Owners of this legal form.' }),
      minProperties: argument('Int', z.number().int('must be an integer').min(1, 'must be 1 or more'), {
        description: 'Owners of at least this many properties, 1 or more.',
      }),
      minPortfolioValue: argument('Float', nonNegativeNumber, {
        description: 'Owners whose `portfolioValue` is at least this, in USD.',
      }),
      absentee: argument('Boolean', z.boolean(), {
        description: 'Owners who do (true) or do not (false) own a property outside their mailing state.',
      }),
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
  },
  rest: {
    fields: {
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
  },
  search: { text: 'name', title: 'name', subtitle: `mailing_city || ', ' || mailing_state` },
  plans: { plan: 'professional' },
  load: {
    required: ['name', 'owner_type', 'mailing_address', 'mailing_city', 'mailing_state', 'mailing_zip'],
    naturalKey: ['name', 'mailing_zip'],
    rules: {
      name: text(200),
      owner_type: z.enum(OWNER_TYPES),
      mailing_address: text(200),
      mailing_city: text(80),
      mailing_state: usState,
      mailing_zip: zipCode,
      phone: text(40),
      email,
    },
    computed: ['properties_count', 'portfolio_value', 'absentee'],
    // A new mailing state changes which of the owner's properties are absentee-owned.
    afterLoad: [PROPERTY_ABSENTEE, OWNER_PORTFOLIO],
  },
});

export default owners;
