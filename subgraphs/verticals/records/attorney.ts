import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { equalsIgnoringCase } from '../../platform/text-match.ts';
import { stateCode } from '../../platform/us-states.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { cityName, practiceArea, recordIdFilter } from '../record-type/filters.ts';
import firms from './firm.ts';
import { email, pastYear, text, usState } from '../record-type/load-rules.ts';
import { reads } from '../../platform/selected-fields.ts';

const BAR_STATUSES = ['active', 'inactive', 'suspended'] as const;
const BarStatus = builder.enumType('BarStatus', {
  description: 'An attorney’s standing with the state bar.',
  values: {
    active: { description: 'Admitted and entitled to practise.' },
    inactive: { description: 'Admitted but not practising.' },
    suspended: { description: 'Suspended from practice.' },
  } satisfies Record<(typeof BAR_STATUSES)[number], object>,
});

const Attorney = builder.prismaObject('Attorney', {
  description: 'An attorney with bar admission and verification.',
  fields: (t) => ({
    id: t.string({
      description: 'The attorney’s API id, `atty_<n>`.',
      extensions: reads('id'),
      resolve: (attorney) => attorneys.ids.format(attorney.id),
    }),
    name: t.string({
      description: 'Full name: first and last name.',
      extensions: reads('firstName', 'lastName'),
      resolve: (attorney) => `${attorney.firstName} ${attorney.lastName}`,
    }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    lastName: t.exposeString('lastName', { description: 'Last name; the `name` sort orders by it.' }),
    firmId: t.string({
      nullable: true,
      description: 'API id of the attorney’s firm, `firm_<n>`; null for a solo practitioner.',
      extensions: reads('firmId'),
      resolve: (attorney) => (attorney.firmId === null ? null : firms.ids.format(attorney.firmId)),
    }),
    firmName: t.string({
      nullable: true,
      description: 'Name of the attorney’s firm; null for a solo practitioner.',
      select: { firm: { select: { name: true } } },
      resolve: (attorney) => attorney.firm?.name ?? null,
    }),
    isPartner: t.exposeBoolean('isPartner', { description: 'Whether the attorney is a partner of the firm.' }),
    practiceAreas: t.exposeStringList('practiceAreas', { description: 'Practice areas, e.g. Personal Injury.' }),
    state: t.exposeString('state', { description: 'Two-letter US state code where the attorney practises.' }),
    city: t.exposeString('city', { description: 'City of practice.' }),
    barNumber: t.exposeString('barNumber', { description: 'The attorney’s number with the state bar.' }),
    barStatus: t.field({
      type: BarStatus,
      description: 'Standing with the state bar.',
      extensions: reads('barStatus'),
      resolve: (attorney) => attorney.barStatus as (typeof BAR_STATUSES)[number],
    }),
    barVerified: t.exposeBoolean('barVerified', { description: 'Whether the bar admission has been verified.' }),
    verifiedAt: t.expose('verifiedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the bar admission was verified; null when it has not been.',
    }),
    admittedYear: t.exposeInt('admittedYear', { description: 'Year of admission to the bar.' }),
    email: t.exposeString('email', { description: 'E-mail address.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
    firm: t.relation('firm', { nullable: true, description: 'The attorney’s firm; null for a solo practitioner.' }),
  }),
});

const attorneys: RecordType = defineRecordType({
  name: 'attorneys',
  kind: 'attorney',
  idPrefix: 'atty',
  vertical: 'legal',
  model: 'Attorney',
  table: 'attorneys',
  references: { firmId: 'firms' },
  graphql: {
    object: Attorney,
    listDescription: 'Attorneys matching every given filter, one offset page at a time (by last name).',
    filters: {
      practiceArea: argument('String', practiceArea, { description: 'A practice area such as Personal Injury.' }),
      state: argument('String', stateCode, { description: 'Attorneys in this state, a two-letter code.' }),
      city: argument('String', cityName, { description: 'Attorneys practising in this city, in any case.' }),
      barStatus: argument(BarStatus, z.enum(BAR_STATUSES), { description: 'Attorneys of this bar standing.' }),
      verified: argument('Boolean', z.boolean(), { description: 'Whether the bar admission has been verified.' }),
      firmId: argument('String', recordIdFilter(firms.ids), { description: 'Attorneys of this firm, `firm_<n>`.' }),
    },
    where: (filter) => ({
      practiceAreas: filter.practiceArea ? { has: filter.practiceArea } : undefined,
      state: filter.state,
      city: filter.city ? equalsIgnoringCase(filter.city) : undefined,
      barStatus: filter.barStatus,
      barVerified: filter.verified,
      firmId: filter.firmId,
    }),
    sorts: {
      name: 'lastName',
      admitted_year: 'admittedYear',
      state: 'state',
      city: 'city',
      verified_at: 'verifiedAt',
      id: 'id',
    },
    defaultSort: { field: 'lastName', direction: 'asc' },
  },
  rest: {
    fields: {
      id: 'id',
      name: 'name',
      firm_id: 'firmId',
      firm_name: 'firmName',
      practice_areas: 'practiceAreas',
      state: 'state',
      city: 'city',
      bar_number: 'barNumber',
      bar_status: 'barStatus',
      bar_verified: 'barVerified',
      verified_at: 'verifiedAt',
      admitted_year: 'admittedYear',
      email: 'email',
      phone: 'phone',
    },
  },
  search: {
    text: `"first_name" || ' ' || "last_name"`,
    title: `first_name || ' ' || last_name`,
    subtitle: `city || ', ' || state`,
  },
  plans: { plan: 'professional' },
  load: {
    required: ['first_name', 'last_name', 'state', 'city', 'bar_number', 'bar_status', 'admitted_year'],
    naturalKey: ['bar_number', 'state'],
    rules: {
      first_name: text(60),
      last_name: text(60),
      practice_areas: z.array(practiceArea).max(20, 'must be at most 20 practice areas'),
      state: usState,
      city: cityName,
      bar_number: text(40),
      bar_status: z.enum(BAR_STATUSES),
      admitted_year: pastYear,
      email,
      phone: text(40),
    },
  },
});

export default attorneys;
