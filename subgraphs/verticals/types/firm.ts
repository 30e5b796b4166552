import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { formatId, parseId } from '../../platform/ids.ts';
import { defineSort } from '../../platform/paging.ts';
import { stateCode } from '../../platform/us-states.ts';
import { parseArguments, withoutNulls } from '../../platform/validation.ts';
import { PageInfo, builder } from '../builder.ts';
import { cityName, practiceArea } from './record-filter.ts';
import { findPage } from '../../platform/deep-page.ts';
import { connectionMaxSize, recordPage, relatedLimit } from './record-page.ts';
import type { RecordPage } from './record-page.ts';
import { countTotal } from '../../platform/totals.ts';
import { equalsIgnoringCase } from '../../platform/text-match.ts';

export const Firm = builder.prismaObject('Firm', {
  description: 'A law firm with its headquarters, practice areas, attorneys and partners.',
  fields: (t) => ({
    id: t.string({ resolve: (firm) => formatId('firm', firm.id) }),
    name: t.exposeString('name'),
    hqCity: t.exposeString('hqCity'),
    hqState: t.exposeString('hqState'),
    size: t.exposeInt('size', { description: 'Attorneys at the firm.' }),
    practiceAreas: t.exposeStringList('practiceAreas'),
    website: t.exposeString('website'),
    foundedYear: t.exposeInt('foundedYear'),
    attorneys: t.relation('attorneys', {
      description: 'The firm’s attorneys, partners first.',
      args: { limit: t.arg.int({ required: false }) },
      query: (args) => ({ take: relatedLimit(args.limit), orderBy: [{ isPartner: 'desc' }, { id: 'asc' }] }),
    }),
    partners: t.relation('attorneys', {
      description: 'The firm’s partners.',
      query: { where: { isPartner: true }, orderBy: { id: 'asc' } },
    }),
    attorneysCount: t.relationCount('attorneys'),
  }),
});

const FirmSort = defineSort(
  builder,
  'FirmSort',
  { size: 'size', name: 'name', founded_year: 'foundedYear', state: 'hqState', id: 'id' },
  { field: 'size', direction: 'desc' },
);

export const firmFilter = z
  .object({
    practiceArea: practiceArea.optional(),
    state: stateCode.optional(),
    city: cityName.optional(),
    minSize: z.number().int('must be an integer').min(1, 'must be 1 or more').optional(),
    maxSize: z.number().int('must be an integer').min(1, 'must be 1 or more').optional(),
  })
  .refine((f) => f.minSize === undefined || f.maxSize === undefined || f.minSize <= f.maxSize, {
    path: ['maxSize'],
    message: 'must not be below min_size',
  });

const firmArgs = builder.args((t) => ({
  practiceArea: t.string({ required: false }),
  state: t.string({ required: false, description: 'State of the headquarters.' }),
  city: t.string({ required: false, description: 'City of the headquarters.' }),
  minSize: t.int({ required: false }),
  maxSize: t.int({ required: false }),
}));

/** The one place a firm filter becomes a Prisma `where` (lists, connections and report jobs use it). */
export function firmWhere(args: object): Prisma.FirmWhereInput {
  const filter = parseArguments(firmFilter, withoutNulls(args as Record<string, unknown>));
  return {
    practiceAreas: filter.practiceArea ? { has: filter.practiceArea } : undefined,
    hqState: filter.state,
    hqCity: filter.city ? equalsIgnoringCase(filter.city) : undefined,
    size: { gte: filter.minSize, lte: filter.maxSize },
  };
}

const FirmPage = builder.objectRef<RecordPage<Prisma.FirmWhereInput>>('FirmPage').implement({
  fields: (t) => ({
    nodes: t.prismaField({
      type: [Firm],
      resolve: (query, page, _args, context) =>
        findPage(page, {
          ids: (args) => context.db.prisma.firm.findMany({ ...args, select: { id: true } }),
          rows: (args) => context.db.prisma.firm.findMany({ ...query, ...args }),
        }),
    }),
    pageInfo: t.field({ type: PageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  firms: t.field({
    type: FirmPage,
    description: 'Law firms matching every given filter, one offset page at a time (largest first).',
    args: {
      ...firmArgs,
      sort: t.arg({ type: FirmSort.ref, required: false }),
      page: t.arg.int({ required: false }),
      perPage: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) =>
      recordPage(firmWhere(args), FirmSort.toOrder(args.sort), args, (where) => countTotal(context.db, 'Firm', where)),
  }),
  firmsConnection: t.prismaConnection({
    type: Firm,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same firms as `firms`, paged by cursor (ordered by id).',
    args: firmArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.firm.findMany({ ...query, where: firmWhere(args), orderBy: { id: 'asc' } }),
  }),
  firm: t.prismaField({
    type: Firm,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.firm.findUnique({ ...query, where: { id: parseId('firm', args.id) } }),
  }),
}));
