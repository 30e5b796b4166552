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
const Seniority = builder.enumType('Seniority', {
  description: 'How senior a contact is.',
  values: {
    c_level: { description: 'A chief officer (CEO, CFO, CTO, …).' },
    vp: { description: 'A vice president.' },
    director: { description: 'A director.' },
    manager: { description: 'A manager.' },
    staff: { description: 'An individual contributor.' },
  } satisfies Record<(typeof SENIORITIES)[number], object>,
});

const Contact = builder.prismaObject('Contact', {
  description: 'A decision maker at a company.',
  fields: (t) => ({
    id: t.string({
      description: 'The contact’s API id, `contact_<n>`.',
      extensions: reads('id'),
      resolve: (contact) => contacts.ids.format(contact.id),
    }),
    companyId: t.string({
      description: 'API id of the contact’s company, `b2b_<n>`.',
      extensions: reads('companyId'),
      resolve: (contact) => companies.ids.format(contact.companyId),
    }),
    name: t.string({
      description: 'Full name: first and last name.',
      extensions: reads('firstName', 'lastName'),
      resolve: (contact) => `${contact.firstName} ${contact.lastName}`,
    }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    lastName: t.exposeString('lastName', { description: 'Last name; the `name` sort orders by it.' }),
    title: t.exposeString('title', { description: 'Job title.' }),
    seniority: t.field({
      type: Seniority,
      description: 'How senior the contact is.',
      extensions: reads('seniority'),
      resolve: (contact) => contact.seniority as (typeof SENIORITIES)[number],
    }),
    department: t.exposeString('department', { description: 'Department as a lower-case token, e.g. sales.' }),
    email: t.exposeString('email', { description: 'Work e-mail address.' }),
    emailVerified: t.exposeBoolean('emailVerified', { description: 'Whether the e-mail address has been verified.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
    linkedinUrl: t.exposeString('linkedinUrl', { description: 'Address of the contact’s LinkedIn profile.' }),
    company: t.relation('company', { description: 'The company the contact works at.' }),
  }),
});

const contacts: RecordType = defineRecordType({
  name: 'contacts',
  kind: 'contact',
  idPrefix: 'contact',
  vertical: 'b2b',
  model: 'Contact',
  table: 'contacts',
  references: { companyId: 'companies' },
  graphql: {
    object: Contact,
    listDescription: 'Decision-maker contacts matching every given filter, one offset page at a time.',
    filters: {
      companyId: argument('String', recordIdFilter(companies.ids), {
        description: 'Contacts at this company, by its id `b2b_<n>`.',
      }),
      seniority: argument(Seniority, z.enum(SENIORITIES), { description: 'Contacts of this seniority.' }),
      department: argument(
        'String',
        z.string().regex(/^[a-z_]{2,40}$/, 'must be a lower-case department token such as sales'),
        { description: 'Contacts in this department, a lower-case token such as sales.' },
      ),
      emailVerified: argument('Boolean', z.boolean(), {
        description: 'Contacts whose e-mail address is (true) or is not (false) verified.',
      }),
    },
    where: (filter) => filter,
    sorts: { name: 'lastName', title: 'title', department: 'department', company_id: 'companyId', id: 'id' },
    defaultSort: { field: 'id', direction: 'asc' },
  },
  rest: {
    fields: {
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
  },
  search: { text: `"first_name" || ' ' || "last_name"`, title: `first_name || ' ' || last_name`, subtitle: 'title' },
  plans: { plan: 'professional' },
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
