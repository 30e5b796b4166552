import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { recordIdFilter } from '../record-type/filters.ts';
import companies from './company.ts';
import { email, text, token } from '../record-type/load-rules.ts';
import { reads } from '../../platform/selected-fields.ts';

const SENIORITIES = ['c_level', 'vp', 'director', 'manager', 'staff'] as const;
const Seniority = builder.enumType('Seniority', { values: SENIORITIES });

const Contact = builder.prismaObject('Contact', {
  description: 'A decision maker at a company.',
  fields: (t) => ({
    id: t.string({ extensions: reads('id'), resolve: (contact) => contacts.ids.format(contact.id) }),
    companyId: t.string({
      extensions: reads('companyId'),
      resolve: (contact) => companies.ids.format(contact.companyId),
    }),
    name: t.string({
      extensions: reads('firstName', 'lastName'),
      resolve: (contact) => `${contact.firstName} ${contact.lastName}`,
    }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    title: t.exposeString('title'),
    seniority: t.field({
      type: Seniority,
      extensions: reads('seniority'),
      resolve: (contact) => contact.seniority as (typeof SENIORITIES)[number],
    }),
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
  load: {
    required: ['first_name', 'last_name', 'title', 'seniority', 'email'],
    naturalKey: ['email'],
    rules: {
      first_name: text(60),
      last_name: text(60),
      title: text(120),
      seniority: z.enum(SENIORITIES),
      department: token,
      email,
      phone: text(40),
      linkedin_url: text(200),
    },
    // The company record shows its most senior contact (the lowest id among equals) as its decision maker.
    afterLoad: [
      `UPDATE companies c
          SET decision_maker_id = top.id, decision_maker = top.first_name || ' ' || top.last_name,
              decision_maker_title = top.title, decision_maker_email = top.email
         FROM (SELECT DISTINCT ON (company_id) company_id, id, first_name, last_name, title, email
                 FROM contacts
                WHERE company_id IN (SELECT company_id FROM contacts WHERE source = $1)
                ORDER BY company_id, array_position(ARRAY['c_level','vp','director','manager','staff'], seniority), id) top
        WHERE c.id = top.company_id AND c.decision_maker_id IS DISTINCT FROM top.id`,
    ],
  },
});

export default contacts;
