import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { formatRevenue } from '../../platform/format.ts';
import { stateCode } from '../../platform/us-states.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { companyByTicker } from '../types/company-by-ticker.ts';

/** A ticker as stored (upper case, SEC dash form such as BRK-B): the link to market data. */
const listedTicker = z
  .string()
  .max(10, 'must be at most 10 characters')
  .regex(/^[A-Za-z][A-Za-z0-9.-]*$/, 'must be a ticker symbol such as AAPL')
  .transform((value) => value.toUpperCase());

const Company = builder.prismaObject('Company', {
  description: 'A business with its top decision maker; `contacts` lists all of them.',
  fields: (t) => ({
    id: t.string({ resolve: (company) => companies.ids.format(company.id) }),
    name: t.exposeString('name'),
    industry: t.exposeString('industryName', { description: 'Display name of the industry.' }),
    industryCode: t.exposeString('industry', { description: 'The lower-case token the `industry` filter takes.' }),
    revenue: t.string({
      description: 'Formatted, e.g. $12.5M.',
      resolve: (company) => formatRevenue(company.revenueUsd),
    }),
    revenueUsd: t.exposeFloat('revenueUsd'),
    employees: t.exposeInt('employees'),
    state: t.exposeString('state'),
    city: t.exposeString('city'),
    website: t.exposeString('website'),
    ticker: t.exposeString('ticker', { nullable: true }),
    foundedYear: t.exposeInt('foundedYear'),
    aiScore: t.exposeInt('aiScore'),
    decisionMaker: t.exposeString('decisionMaker'),
    decisionMakerTitle: t.exposeString('decisionMakerTitle'),
    decisionMakerEmail: t.exposeString('decisionMakerEmail'),
    contacts: t.relation('contacts', { query: { orderBy: { id: 'asc' } } }),
  }),
});

// The markets subgraph extends Company with market data by its id, and points at a company by its ticker (a
// trade, signal or lead knows only the ticker): the second key resolves that reference (docs/design.md).
builder.asEntity(Company, {
  key: [builder.selection<{ id: string }>('id'), builder.selection<{ ticker: string }>('ticker')],
  resolveReference: (reference, context) =>
    'id' in reference
      ? // Prisma batches findUnique calls made in the same tick, so N references cost one query.
        context.db.prisma.company.findUnique({ where: { id: companies.ids.parse(reference.id) } })
      : companyByTicker(context).load(reference.ticker),
});

const companies: RecordType = defineRecordType({
  name: 'companies',
  kind: 'company',
  idPrefix: 'b2b',
  vertical: 'b2b',
  model: 'Company',
  table: 'companies',
  object: Company,
  listDescription: 'Companies matching every given filter, one offset page at a time.',
  filters: {
    industry: argument(
      'String',
      z.string().regex(/^[a-z_]{2,40}$/, 'must be a lower-case industry token such as software'),
    ),
    state: argument('String', stateCode),
    minScore: argument('Int', z.number().int().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100')),
    ticker: argument('String', listedTicker, {
      description: 'The company’s stock ticker in any case, e.g. AAPL or BRK-B (exact match).',
    }),
  },
  where: (filter) => ({
    industry: filter.industry,
    state: filter.state,
    aiScore: { gte: filter.minScore },
    ticker: filter.ticker,
  }),
  sorts: {
    ai_score: 'aiScore',
    revenue: 'revenueUsd',
    employees: 'employees',
    company: 'name',
    state: 'state',
    id: 'id',
  },
  defaultSort: { field: 'aiScore', direction: 'desc' },
  restFields: {
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
  },
  search: { text: 'name', title: 'name', subtitle: `industry_name || ' · ' || city || ', ' || state` },
  plan: 'professional',
  // A company is what market data (signals, trades, profiles) joins to: its own fields are open to every plan; its
  // decision makers are not.
  fieldPlans: { '*': 'analyst', contacts: 'professional' },
  columnNames: {
    company: 'name',
    title: 'decisionMakerTitle',
    email: 'decisionMakerEmail',
    industry_code: 'industry',
    industry: 'industryName',
  },
});

export default companies;
