import { z } from 'zod';
import { argument } from '../../platform/arguments.ts';
import { companyIds } from '../../platform/ids.ts';
import { formatRevenue } from '../../platform/format.ts';
import { canonicalTicker } from '../../platform/tickers.ts';
import { stateCode } from '../../platform/us-states.ts';
import { cityName, nonNegativeNumber } from '../record-type/filters.ts';
import { builder } from '../builder.ts';
import { defineRecordType } from '../record-type/define.ts';
import type { RecordType } from '../record-type/define.ts';
import { count, email, pastYear, score, splitPlace, text, token, usState } from '../record-type/load-rules.ts';
import { reads } from '../../platform/selected-fields.ts';

/** A ticker in any case and class-share form (BRK.B, brk-b), as stored: the SEC dash form that links market data. */
const listedTicker = z
  .string()
  .max(10, 'must be at most 10 characters')
  .regex(/^[A-Za-z][A-Za-z0-9./-]*$/, 'must be a ticker symbol such as AAPL')
  .transform(canonicalTicker);

const Company = builder.prismaObject('Company', {
  description: 'A business with its top decision maker; `contacts` lists all of them.',
  fields: (t) => ({
    id: t.string({
      description: 'The company’s API id, `b2b_<n>`.',
      extensions: reads('id'),
      resolve: (company) => companies.ids.format(company.id),
    }),
    name: t.exposeString('name', { description: 'The company’s name (REST `company`).' }),
    industry: t.exposeString('industryName', { nullable: true, description: 'Display name of the industry.' }),
    industryCode: t.exposeString('industry', {
      nullable: true,
      description: 'The lower-case token the `industry` filter takes.',
    }),
    revenue: t.string({
      nullable: true,
      description: 'Formatted, e.g. $12.5M.',
      extensions: reads('revenueUsd'),
      resolve: (company) => (company.revenueUsd === null ? null : formatRevenue(company.revenueUsd)),
    }),
    revenueUsd: t.exposeFloat('revenueUsd', { nullable: true, description: 'Annual revenue in USD.' }),
    employees: t.exposeInt('employees', { nullable: true, description: 'Number of employees.' }),
    state: t.exposeString('state', { nullable: true, description: 'Two-letter US state code of its headquarters.' }),
    city: t.exposeString('city', { nullable: true, description: 'City of its headquarters.' }),
    website: t.exposeString('website', { nullable: true, description: 'The company’s website address.' }),
    ticker: t.exposeString('ticker', {
      nullable: true,
      description: 'Stock ticker in the SEC dash form (`BRK-B`); links the company to market data.',
    }),
    foundedYear: t.exposeInt('foundedYear', { nullable: true, description: 'Year the company was founded.' }),
    aiScore: t.exposeInt('aiScore', { description: 'Lead score from 0 to 100; 0 when no one has scored it.' }),
    decisionMaker: t.exposeString('decisionMaker', {
      nullable: true,
      description: 'Full name of its top decision maker (REST `decision_maker`).',
    }),
    decisionMakerTitle: t.exposeString('decisionMakerTitle', {
      nullable: true,
      description: 'Job title of the decision maker (REST `title`).',
    }),
    decisionMakerEmail: t.exposeString('decisionMakerEmail', {
      nullable: true,
      description: 'E-mail address of the decision maker (REST `email`).',
    }),
    contacts: t.relation('contacts', {
      description: 'Every contact at the company, by id (professional plan).',
      query: { orderBy: { id: 'asc' } },
    }),
  }),
});

// The markets subgraph extends Company with market data by its id (the ticker it needs is @requires), and points
// at a company by its id too: one key, which every company has (docs/design.md, "Two-way joins").
builder.asEntity(Company, {
  key: builder.selection<{ id: string }>('id'),
  // Prisma batches findUnique calls made in the same tick, so N references cost one query.
  resolveReference: (reference, context) =>
    context.db.prisma.company.findUnique({ where: { id: companies.ids.parse(reference.id) } }),
});

const industryToken = z.string().regex(/^[a-z_]{2,40}$/, 'must be a lower-case industry token such as software');

const companies: RecordType = defineRecordType({
  name: 'companies',
  kind: 'company',
  idPrefix: companyIds.prefix,
  vertical: 'b2b',
  model: 'Company',
  table: 'companies',
  graphql: {
    object: Company,
    listDescription: 'Companies matching every given filter, one offset page at a time.',
    filters: {
      industry: argument('String', industryToken, {
        description: 'Companies in this industry, by its lower-case token (`industryCode`), e.g. software.',
      }),
      state: argument('String', stateCode, {
        description: 'Companies headquartered in this state, a two-letter code.',
      }),
      minScore: argument('Int', z.number().int().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100'), {
        description: 'Companies with an `aiScore` of at least this, 0-100.',
      }),
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
  },
  rest: {
    fields: {
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
  },
  search: {
    text: 'name',
    title: 'name',
    subtitle: `concat_ws(' · ', industry_name, nullif(concat_ws(', ', city, state), ''))`,
  },
  plans: {
    plan: 'professional',
    // A company is what market data (signals, trades, profiles) joins to: its own fields are open to every plan; its
    // decision makers are not.
    fields: { '*': 'analyst', contacts: 'professional' },
  },
  load: {
    columnNames: {
      company: 'name',
      title: 'decisionMakerTitle',
      email: 'decisionMakerEmail',
      industry_code: 'industry',
      industry: 'industryName',
    },
    required: ['company'],
    naturalKey: ['company'],
    rules: {
      company: text(200),
      industry: text(100),
      industry_code: token,
      revenue_usd: nonNegativeNumber,
      employees: count,
      state: usState,
      city: cityName,
      website: text(200),
      ticker: listedTicker,
      founded_year: pastYear,
      ai_score: score,
      decision_maker: text(120),
      title: text(120),
      email,
    },
    inputs: { headquarters: text(200) },
    derive: {
      // The Fortune 1000 names an industry ("General Merchandisers"), the filter takes a token (general_merchandisers).
      industry_code: { from: ['industry'], value: (row) => row.industry },
      // The S&P 500 gives "Saint Paul, Minnesota"; a headquarters abroad ("Dublin, Ireland") leaves both empty.
      city: { from: ['headquarters'], value: (row) => splitPlace(row.headquarters).city },
      state: { from: ['headquarters'], value: (row) => splitPlace(row.headquarters).state },
    },
    computed: ['decision_maker_id'],
  },
});

export default companies;
