import { NotFoundError } from '../../platform/errors.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { tickerSymbol } from '../tickers.ts';

export const CompanyProfile = builder.prismaObject('CompanyProfile', {
  description: 'The cached profile of a listed company (refreshed by the importers).',
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    cik: t.exposeString('cik', { nullable: true }),
    companyName: t.exposeString('companyName'),
    sector: t.exposeString('sector'),
    industry: t.exposeString('industry'),
    marketCap: t.exposeFloat('marketCap', { nullable: true, description: 'US dollars.' }),
    ceo: t.exposeString('ceo', { nullable: true }),
    description: t.exposeString('description'),
    website: t.exposeString('website', { nullable: true }),
    employees: t.exposeInt('employees', { nullable: true }),
    headquarters: t.exposeString('headquarters', { nullable: true }),
    founded: t.exposeString('founded', {
      nullable: true,
      description: 'The founding year as the source writes it ("1902", "2013 (1888)").',
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the cached profile was last refreshed.' }),
  }),
});

const profileArguments = defineArguments({ ticker: argument('String', tickerSymbol, { required: true }) });

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
