import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { formatId, parseId } from '../../platform/ids.ts';
import { defineSort } from '../../platform/paging.ts';
import { stateCode } from '../../platform/us-states.ts';
import { parseArguments, withoutNulls } from '../../platform/validation.ts';
import { PageInfo, builder } from '../builder.ts';
import { cityName, practiceArea, recordIdFilter } from './record-filter.ts';
import { findPage } from '../../platform/deep-page.ts';
import { connectionMaxSize, recordPage } from './record-page.ts';
import type { RecordPage } from './record-page.ts';
import { countTotal } from '../../platform/totals.ts';
import { equalsIgnoringCase } from '../../platform/text-match.ts';

export const BAR_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const BarStatus = builder.enumType('BarStatus', { values: BAR_STATUSES });

export const Attorney = builder.prismaObject('Attorney', {
  description: 'An attorney with bar admission and verification.',
  fields: (t) => ({
    id: t.string({ resolve: (attorney) => formatId('attorney', attorney.id) }),
    name: t.string({ resolve: (attorney) => `${attorney.firstName} ${attorney.lastName}` }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    firmId: t.string({
      nullable: true,
      resolve: (attorney) => (attorney.firmId === null ? null : formatId('firm', attorney.firmId)),
    }),
    firmName: t.string({
      nullable: true,
      select: { firm: { select: { name: true } } },
      resolve: (attorney) => attorney.firm?.name ?? null,
    }),
    isPartner: t.exposeBoolean('isPartner'),
    practiceAreas: t.exposeStringList('practiceAreas'),
    state: t.exposeString('state'),
    city: t.exposeString('city'),
    barNumber: t.exposeString('barNumber'),
    barStatus: t.field({ type: BarStatus, resolve: (attorney) => attorney.barStatus as (typeof BAR_STATUSES)[number] }),
    barVerified: t.exposeBoolean('barVerified'),
    verifiedAt: t.expose('verifiedAt', { type: 'DateTime', nullable: true }),
    admittedYear: t.exposeInt('admittedYear'),
    email: t.exposeString('email'),
    phone: t.exposeString('phone'),
    firm: t.relation('firm', { nullable: true }),
  }),
});

const AttorneySort = defineSort(
  builder,
  'AttorneySort',
  { name: 'lastName', admitted_year: 'admittedYear', state: 'state', city: 'city', verified_at: 'verifiedAt', id: 'id' },
  { field: 'lastName', direction: 'asc' },
);

export const attorneyFilter = z.object({
  practiceArea: practiceArea.optional(),
  state: stateCode.optional(),
  city: cityName.optional(),
  barStatus: z.enum(BAR_STATUSES).optional(),
  verified: z.boolean().optional(),
  firmId: recordIdFilter('firm').optional(),
});

const attorneyArgs = builder.args((t) => ({
  practiceArea: t.string({ required: false, description: 'A practice area such as Personal Injury.' }),
  state: t.string({ required: false }),
  city: t.string({ required: false }),
  barStatus: t.field({ type: BarStatus, required: false }),
  verified: t.boolean({ required: false, description: 'Whether the bar admission has been verified.' }),
  firmId: t.string({ required: false }),
}));

/** The one place an attorney filter becomes a Prisma `where` (lists, connections and report jobs use it). */
export function attorneyWhere(args: object): Prisma.AttorneyWhereInput {
  const filter = parseArguments(attorneyFilter, withoutNulls(args as Record<string, unknown>));
  return {
    practiceAreas: filter.practiceArea ? { has: filter.practiceArea } : undefined,
    state: filter.state,
    city: filter.city ? equalsIgnoringCase(filter.city) : undefined,
    barStatus: filter.barStatus,
    barVerified: filter.verified,
    firmId: filter.firmId,
  };
}

const AttorneyPage = builder.objectRef<RecordPage<Prisma.AttorneyWhereInput>>('AttorneyPage').implement({
  fields: (t) => ({
    nodes: t.prismaField({
      type: [Attorney],
      resolve: (query, page, _args, context) =>
        findPage(page, {
          ids: (args) => context.db.prisma.attorney.findMany({ ...args, select: { id: true } }),
          rows: (args) => context.db.prisma.attorney.findMany({ ...query, ...args }),
        }),
    }),
    pageInfo: t.field({ type: PageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  attorneys: t.field({
    type: AttorneyPage,
    description: 'Attorneys matching every given filter, one offset page at a time (by last name).',
    args: {
      ...attorneyArgs,
      sort: t.arg({ type: AttorneySort.ref, required: false }),
      page: t.arg.int({ required: false }),
      perPage: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) =>
      recordPage(attorneyWhere(args), AttorneySort.toOrder(args.sort), args, (where) =>
        countTotal(context.db, 'Attorney', where),
      ),
  }),
  attorneysConnection: t.prismaConnection({
    type: Attorney,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same attorneys as `attorneys`, paged by cursor (ordered by id).',
    args: attorneyArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.attorney.findMany({ ...query, where: attorneyWhere(args), orderBy: { id: 'asc' } }),
  }),
  attorney: t.prismaField({
    type: Attorney,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.attorney.findUnique({ ...query, where: { id: parseId('attorney', args.id) } }),
  }),
}));
