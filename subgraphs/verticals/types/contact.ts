import { formatId } from '../../shared/ids.ts';
import { builder } from '../builder.ts';

export const Contact = builder.prismaObject('Contact', {
  description: 'A decision maker at a company.',
  fields: (t) => ({
    id: t.string({ resolve: (contact) => formatId('contact', contact.id) }),
    companyId: t.string({ resolve: (contact) => formatId('company', contact.companyId) }),
    name: t.string({ resolve: (contact) => `${contact.firstName} ${contact.lastName}` }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    title: t.exposeString('title'),
    seniority: t.exposeString('seniority'),
    department: t.exposeString('department'),
    email: t.exposeString('email'),
    emailVerified: t.exposeBoolean('emailVerified'),
    phone: t.exposeString('phone'),
    linkedinUrl: t.exposeString('linkedinUrl'),
    company: t.relation('company'),
  }),
});
