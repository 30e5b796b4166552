import { builder } from '../builder.ts';
import { profileByTicker, quoteByTicker, signalsByTicker, tradesByTicker } from '../ticker-loaders.ts';
import { CompanyProfile } from './company-profile.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { Quote } from './quote.ts';
import { Signal as SignalType } from './signal.ts';
import { Ticker, recentLimitArguments } from './ticker.ts';

/**
 * The verticals subgraph's Company, extended with its market data. The gateway sends each company's `ticker`
 * (@requires), and the market data of all companies in a response is read in batches by ticker.
 */
export const CompanyRef = builder.externalRef('Company', builder.selection<{ id: string }>('id'), (ref) => ref);

type WithTicker = { ticker?: string | null };
const requiresTicker = builder.selection<WithTicker>('ticker');

CompanyRef.implement({
  externalFields: (t) => ({
    id: t.string(),
    ticker: t.string({ nullable: true }),
  }),
  fields: (t) => ({
    signals: t.field({
      type: [SignalType],
      description:
        'The company’s latest signals (by ticker, within the plan’s history), newest first; empty without a ticker.',
      args: recentLimitArguments.graphql(t.arg),
      requires: requiresTicker,
      resolve: (company, args, context) => {
        const { limit } = recentLimitArguments.parse(args);
        return company.ticker ? signalsByTicker(context, limit).load(company.ticker) : [];
      },
    }),
    congressionalTrades: t.field({
      type: [CongressionalTrade],
      description: 'Congressional trades of the company’s stock, newest trade first; empty without a ticker.',
      args: recentLimitArguments.graphql(t.arg),
      requires: requiresTicker,
      resolve: (company, args, context) => {
        const { limit } = recentLimitArguments.parse(args);
        return company.ticker ? tradesByTicker(context, limit).load(company.ticker) : [];
      },
    }),
    profile: t.field({
      type: CompanyProfile,
      nullable: true,
      requires: requiresTicker,
      resolve: (company, _args, context) => (company.ticker ? profileByTicker(context).load(company.ticker) : null),
    }),
    quote: t.field({
      type: Quote,
      nullable: true,
      requires: requiresTicker,
      resolve: (company, _args, context) => (company.ticker ? quoteByTicker(context).load(company.ticker) : null),
    }),
    market: t.field({
      type: Ticker,
      nullable: true,
      description: 'The ticker view of the company’s stock (summary counts and more); null without a ticker.',
      requires: requiresTicker,
      resolve: (company) => (company.ticker ? { ticker: company.ticker, found: true } : null),
    }),
  }),
});
