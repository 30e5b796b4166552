import { builder } from '../builder.ts';
import { profileByTicker, quoteByTicker, signalsByTicker, tradesByTicker } from '../ticker-loaders.ts';
import { CompanyProfile } from './company-profile.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { Quote } from './quote.ts';
import { Signal as SignalType } from './signal.ts';
import { Ticker, recentLimitArguments } from './ticker.ts';

/**
 * The verticals subgraph's Company, extended with its market data. Market data joins by ticker, but the key is the
 * company's `id`, which every company has: the gateway sends each company's id with its `ticker` (@requires; null
 * for a company without one, whose market lists are empty). A nullable key would not do: gateways leave an entity
 * whose key field is null unresolved (Hive Gateway does; Apollo Gateway sent it). The market data of all companies
 * in a response is read in batches by ticker. Market records point back at a company by its id (company-links.ts).
 */
export const CompanyRef = builder.externalRef('Company', builder.selection<{ id: string }>('id'), (ref) => ref);

const requiresTicker = builder.selection<{ ticker?: string | null }>('ticker');

CompanyRef.implement({
  externalFields: (t) => ({
    id: t.string(),
    ticker: t.string({ nullable: true }),
  }),
  fields: (t) => ({
    signals: t.field({
      requires: requiresTicker,
      type: [SignalType],
      description:
        'The company’s latest signals (by ticker, within the plan’s history), newest first; empty without a ticker.',
      args: recentLimitArguments.graphql(t.arg),
      resolve: (company, args, context) => {
        const { limit } = recentLimitArguments.parse(args);
        return company.ticker ? signalsByTicker(context, limit).load(company.ticker) : [];
      },
    }),
    congressionalTrades: t.field({
      requires: requiresTicker,
      type: [CongressionalTrade],
      description: 'Congressional trades of the company’s stock, newest trade first; empty without a ticker.',
      args: recentLimitArguments.graphql(t.arg),
      resolve: (company, args, context) => {
        const { limit } = recentLimitArguments.parse(args);
        return company.ticker ? tradesByTicker(context, limit).load(company.ticker) : [];
      },
    }),
    profile: t.field({
      requires: requiresTicker,
      type: CompanyProfile,
      nullable: true,
      description: 'The cached profile of the company’s stock; null without a ticker or profile.',
      resolve: (company, _args, context) => (company.ticker ? profileByTicker(context).load(company.ticker) : null),
    }),
    quote: t.field({
      requires: requiresTicker,
      type: Quote,
      nullable: true,
      description: 'The latest stored daily close of its stock; null without a ticker or prices.',
      resolve: (company, _args, context) => (company.ticker ? quoteByTicker(context).load(company.ticker) : null),
    }),
    market: t.field({
      requires: requiresTicker,
      type: Ticker,
      nullable: true,
      description: 'The ticker view of the company’s stock (summary counts and more); null without a ticker.',
      resolve: (company) => (company.ticker ? { ticker: company.ticker, found: true } : null),
    }),
  }),
});
