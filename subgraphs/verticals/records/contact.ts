import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { recordIdFilter } from '../record-type/filters.ts';
import companies from './company.ts';

const SENIORITIES = ['c_level', 'vp', 'director', 'manager', 'staff'] as const;
const Seniority = builder.enumType('Seniority', { values: SENIORITIES });

const Contact = builder.prismaObject('Contact', {
  description: 'A decision maker at a company.',
  fields: (t) => ({
    id: t.string({ resolve: (contact) => contacts.ids.format(contact.id) }),
    companyId: t.string({ resolve: (contact) => companies.ids.format(contact.companyId) }),
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

const contacts: RecordType = defineRecordType({
  name: 'contacts',
  kind: 'contact',
  idPrefix: 'contact',
  vertical: 'b2b',
  model: 'Contact',
  table: 'contacts',
  object: Contact,
  listDescription: 'Decision-maker contacts matching every given filter, one offset page at a time.',
  filters: {
    companyId: argument('String', recordIdFilter(companies.ids)),
    seniority: argument(Seniority, z.enum(SENIORITIES)),
    department: argument(
      'String',
      z.string().regex(/^[a-z_]{2,40}$/, 'must be a lower-case department token such as sales'),
    ),
    emailVerified: argument('Boolean', z.boolean()),
  },
  where: (filter) => filter,
  sorts: { name: 'lastName', title: 'title', department: 'department', company_id: 'companyId', id: 'id' },
  defaultSort: { field: 'id', direction: 'asc' },
  restFields: {
    id: 'id',
    company_id: 'companyId',
    name: 'name',
    title: 'title',
    seniority: 'seniority',
    department: 'department',
    email: 'email',
    email_verified: 'emailVerified',
    phone: 'phone',
    linkedin_url: 'linkedinUrl',
  },
  search: { text: `"first_name" || ' ' || "last_name"`, title: `first_name || ' ' || last_name`, subtitle: 'title' },
  plan: 'professional',
  references: { companyId: 'companies' },
});

export default contacts;
