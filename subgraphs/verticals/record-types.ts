import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Database } from '../platform/database.ts';
import type { RecordKind } from '../platform/ids.ts';
import { attorneyFilter, attorneyWhere } from './types/attorney.ts';
import { companyFilter, companyWhere } from './types/company.ts';
import { contactFilter, contactWhere } from './types/contact.ts';
import { firmFilter, firmWhere } from './types/firm.ts';
import { ownerFilter, ownerWhere } from './types/owner.ts';
import { propertyFilter, propertyWhere } from './types/property.ts';

export const VERTICALS = ['b2b', 'realestate', 'legal'] as const;
export type Vertical = (typeof VERTICALS)[number];

export const RECORD_TYPE_NAMES = ['companies', 'contacts', 'properties', 'owners', 'attorneys', 'firms'] as const;
export type RecordTypeName = (typeof RECORD_TYPE_NAMES)[number];

/**
 * Each record type's documented wire shape, defined once: the REST lists and single-record routes select
 * `fields` (REST name → GraphQL selection), and report files carry the very same records, so a report row is
 * byte for byte what `GET /api/v1/...` returns. Filters are the list field's GraphQL arguments; their REST
 * names are the snake_case of the argument names (`minEquity` → `min_equity`).
 */
export interface RecordType {
  name: RecordTypeName;
  kind: RecordKind;
  vertical: Vertical;
  /** GraphQL query fields: the offset list, the cursor connection and the single record. */
  list: string;
  connection: string;
  one: string;
  fields: Record<string, string>;
  /** The list's filter arguments (GraphQL names). */
  filters: readonly string[];
  /** The list's filter as a Prisma `where`, validated (a BadRequestError names the bad arguments). */
  where(args: object): unknown;
  count(db: Database, where: unknown): Promise<number>;
}

const COMPANY_FIELDS = {
  id: 'id',
  company: 'name',
  industry: 'industry',
  revenue: 'revenue',
  employees: 'employees',
  state: 'state',
  decision_maker: 'decisionMaker',
  title: 'decisionMakerTitle',
  email: 'decisionMakerEmail',
  ai_score: 'aiScore',
};

export const RECORD_TYPES: Record<RecordTypeName, RecordType> = {
  companies: {
    name: 'companies',
    kind: 'company',
    vertical: 'b2b',
    list: 'companies',
    connection: 'companiesConnection',
    one: 'company',
    fields: COMPANY_FIELDS,
    filters: Object.keys(companyFilter.shape),
    where: (args) => companyWhere(args as Parameters<typeof companyWhere>[0]),
    count: (db, where) => db.prisma.company.count({ where: where as Prisma.CompanyWhereInput }),
  },
  contacts: {
    name: 'contacts',
    kind: 'contact',
    vertical: 'b2b',
    list: 'contacts',
    connection: 'contactsConnection',
    one: 'contact',
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
    filters: Object.keys(contactFilter.shape),
    where: contactWhere,
    count: (db, where) => db.prisma.contact.count({ where: where as Prisma.ContactWhereInput }),
  },
  properties: {
    name: 'properties',
    kind: 'property',
    vertical: 'realestate',
    list: 'properties',
    connection: 'propertiesConnection',
    one: 'property',
    fields: {
      id: 'id',
      address: 'address',
      city: 'city',
      state: 'state',
      zip: 'zip',
      county: 'county',
      property_type: 'propertyType',
      bedrooms: 'bedrooms',
      bathrooms: 'bathrooms',
      sqft: 'sqft',
      year_built: 'yearBuilt',
      estimated_value: 'estimatedValue',
      mortgage_balance: 'mortgageBalance',
      equity_pct: 'equityPct',
      last_sale_date: 'lastSaleDate',
      last_sale_price: 'lastSalePrice',
      owner_id: 'ownerId',
      owner_name: 'ownerName',
      absentee_owner: 'absenteeOwner',
    },
    filters: Object.keys(propertyFilter.shape),
    where: propertyWhere,
    count: (db, where) => db.prisma.property.count({ where: where as Prisma.PropertyWhereInput }),
  },
  owners: {
    name: 'owners',
    kind: 'owner',
    vertical: 'realestate',
    list: 'owners',
    connection: 'ownersConnection',
    one: 'owner',
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
    filters: Object.keys(ownerFilter.shape),
    where: ownerWhere,
    count: (db, where) => db.prisma.owner.count({ where: where as Prisma.OwnerWhereInput }),
  },
  attorneys: {
    name: 'attorneys',
    kind: 'attorney',
    vertical: 'legal',
    list: 'attorneys',
    connection: 'attorneysConnection',
    one: 'attorney',
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
    filters: Object.keys(attorneyFilter.shape),
    where: attorneyWhere,
    count: (db, where) => db.prisma.attorney.count({ where: where as Prisma.AttorneyWhereInput }),
  },
  firms: {
    name: 'firms',
    kind: 'firm',
    vertical: 'legal',
    list: 'firms',
    connection: 'firmsConnection',
    one: 'firm',
    fields: {
      id: 'id',
      name: 'name',
      hq_city: 'hqCity',
      hq_state: 'hqState',
      size: 'size',
      practice_areas: 'practiceAreas',
      partners: 'partners { id name }',
      website: 'website',
      founded_year: 'foundedYear',
    },
    filters: Object.keys(firmFilter.shape),
    where: firmWhere,
    count: (db, where) => db.prisma.firm.count({ where: where as Prisma.FirmWhereInput }),
  },
};

/** The record type a report of a vertical exports when it names none. */
export const PRIMARY_RECORD_TYPE: Record<Vertical, RecordTypeName> = {
  b2b: 'companies',
  realestate: 'properties',
  legal: 'attorneys',
};

export function recordTypeOfKind(kind: RecordKind): RecordType | undefined {
  return Object.values(RECORD_TYPES).find((type) => type.kind === kind);
}

/** `fields` as a GraphQL selection with the REST names as aliases (`company: name`). */
export function selectionOf(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([alias, selection]) => (alias === selection ? alias : `${alias}: ${selection}`))
    .join(' ');
}

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
export const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
