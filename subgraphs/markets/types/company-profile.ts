import { NotFoundError } from '../../platform/errors.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { TICKER_FORMAT, tickerSymbol } from '../tickers.ts';

export const CompanyProfile = builder.prismaObject('CompanyProfile', {
  description: 'The cached profile of a listed company (refreshed by the importers).',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The ticker in its stored form, upper case (`BRK-B`).' }),
    cik: t.exposeString('cik', { nullable: true, description: 'The SEC’s Central Index Key of the company.' }),
    companyName: t.exposeString('companyName', { description: 'The company’s name.' }),
    sector: t.exposeString('sector', { description: 'Market sector, e.g. Technology.' }),
    industry: t.exposeString('industry', { description: 'Industry within the sector.' }),
    marketCap: t.exposeFloat('marketCap', { nullable: true, description: 'US dollars.' }),
    ceo: t.exposeString('ceo', { nullable: true, description: 'Name of the chief executive.' }),
    description: t.exposeString('description', { description: 'What the company does, in prose.' }),
    website: t.exposeString('website', { nullable: true, description: 'The company’s website address.' }),
    employees: t.exposeInt('employees', { nullable: true, description: 'Number of employees.' }),
    headquarters: t.exposeString('headquarters', { nullable: true, description: 'Where the company is based.' }),
    founded: t.exposeString('founded', {
      nullable: true,
      description: 'The founding year as the source writes it ("1902", "2013 (1888)").',
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the cached profile was last refreshed.' }),
  }),
});

const profileArguments = defineArguments({
  ticker: argument('String', tickerSymbol, { required: true, description: `The ticker symbol (${TICKER_FORMAT}).` }),
});

builder.queryFields((t) => ({
  companyProfile: t.prismaField({
    type: CompanyProfile,
    description: 'The cached profile of a ticker; an unknown ticker is not_found.',
    args: profileArguments.graphql(t.arg),
    resolve: async (query, _root, args, context) => {
      const { ticker } = profileArguments.parse(args);
      const profile = await context.db.prisma.companyProfile.findUnique({ ...query, where: { ticker } });
      if (!profile) throw new NotFoundError(`Ticker ${ticker}`);
      return profile;
    },
  }),
}));
