import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { formatId, parseId } from '../../platform/ids.ts';
import { defineSort } from '../../platform/paging.ts';
import { parseArguments, withoutNulls } from '../../platform/validation.ts';
import { PageInfo, builder } from '../builder.ts';
import { recordIdFilter } from './record-filter.ts';
import { findPage } from '../../platform/deep-page.ts';
import { connectionMaxSize, recordPage } from './record-page.ts';
import type { RecordPage } from './record-page.ts';
import { countTotal } from '../../platform/totals.ts';

export const SENIORITIES = ['c_level', 'vp', 'director', 'manager', 'staff'] as const;
export const Seniority = builder.enumType('Seniority', { values: SENIORITIES });

export const Contact = builder.prismaObject('Contact', {
  description: 'A decision maker at a company.',
  fields: (t) => ({
    id: t.string({ resolve: (contact) => formatId('contact', contact.id) }),
    companyId: t.string({ resolve: (contact) => formatId('company', contact.companyId) }),
    name: t.string({ resolve: (contact) => `${contact.firstName} ${contact.lastName}` }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    title: t.exposeString('title'),
    seniority: t.field({ type: Seniority, resolve: (contact) => contact.seniority as (typeof SENIORITIES)[number] }),
    department: t.exposeString('department'),
    email: t.exposeString('email'),
    emailVerified: t.exposeBoolean('emailVerified'),
    phone: t.exposeString('phone'),
    linkedinUrl: t.exposeString('linkedinUrl'),
    company: t.relation('company'),
  }),
});

const ContactSort = defineSort(
  builder,
  'ContactSort',
  { name: 'lastName', title: 'title', department: 'department', company_id: 'companyId', id: 'id' },
  { field: 'id', direction: 'asc' },
);

export const contactFilter = z.object({
  companyId: recordIdFilter('company').optional(),
  seniority: z.enum(SENIORITIES).optional(),
  department: z.string().regex(/^[a-z_]{2,40}$/, 'must be a lower-case department token such as sales').optional(),
  emailVerified: z.boolean().optional(),
});

const contactArgs = builder.args((t) => ({
  companyId: t.string({ required: false }),
  seniority: t.field({ type: Seniority, required: false }),
  department: t.string({ required: false }),
  emailVerified: t.boolean({ required: false }),
}));

/** The one place a contact filter becomes a Prisma `where` (lists, connections and report jobs use it). */
export function contactWhere(args: object): Prisma.ContactWhereInput {
  return parseArguments(contactFilter, withoutNulls(args as Record<string, unknown>));
}

const ContactPage = builder.objectRef<RecordPage<Prisma.ContactWhereInput>>('ContactPage').implement({
  fields: (t) => ({
    nodes: t.prismaField({
      type: [Contact],
      resolve: (query, page, _args, context) =>
        findPage(page, {
          ids: (args) => context.db.prisma.contact.findMany({ ...args, select: { id: true } }),
          rows: (args) => context.db.prisma.contact.findMany({ ...query, ...args }),
        }),
    }),
    pageInfo: t.field({ type: PageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  contacts: t.field({
    type: ContactPage,
    description: 'Decision-maker contacts matching every given filter, one offset page at a time.',
    args: {
      ...contactArgs,
      sort: t.arg({ type: ContactSort.ref, required: false }),
      page: t.arg.int({ required: false }),
      perPage: t.arg.int({ required: false }),
    },
    resolve: (_root, args, context) =>
      recordPage(contactWhere(args), ContactSort.toOrder(args.sort), args, (where) =>
        countTotal(context.db, 'Contact', where),
      ),
  }),
  contactsConnection: t.prismaConnection({
    type: Contact,
    cursor: 'id',
    maxSize: connectionMaxSize,
    description: 'The same contacts as `contacts`, paged by cursor (ordered by id).',
    args: contactArgs,
    resolve: (query, _root, args, context) =>
      context.db.prisma.contact.findMany({ ...query, where: contactWhere(args), orderBy: { id: 'asc' } }),
  }),
  contact: t.prismaField({
    type: Contact,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, context) =>
      context.db.prisma.contact.findUnique({ ...query, where: { id: parseId('contact', args.id) } }),
  }),
}));
