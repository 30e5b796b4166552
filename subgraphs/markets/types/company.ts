import { builder } from '../builder.ts';
import { profileByTicker, quoteByTicker, signalsByTicker, tradesByTicker } from '../ticker-loaders.ts';
import { CompanyProfile } from './company-profile.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { Quote } from './quote.ts';
import { Signal as SignalType } from './signal.ts';
import { Ticker, recentLimitArguments } from './ticker.ts';

/**
 * The verticals subgraph's Company, extended with its market data. Market data joins by ticker, so this subgraph
 * knows a company by its `ticker` key alone: the gateway sends each company's ticker (null for a company without
 * one, whose market lists are empty), and the market data of all companies in a response is read in batches by
 * ticker. Market records point back at a company the same way (company-links.ts; docs/design.md).
 */
export const CompanyRef = builder.externalRef(
  'Company',
  builder.selection<{ ticker: string | null }>('ticker'),
  (ref) => ref,
);

CompanyRef.implement({
  externalFields: (t) => ({
    ticker: t.string({ nullable: true }),
  }),
  fields: (t) => ({
    signals: t.field({
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
      type: [CongressionalTrade],
      description: 'Congressional trades of the company’s stock, newest trade first; empty without a ticker.',
      args: recentLimitArguments.graphql(t.arg),
      resolve: (company, args, context) => {
        const { limit } = recentLimitArguments.parse(args);
        return company.ticker ? tradesByTicker(context, limit).load(company.ticker) : [];
      },
    }),
    profile: t.field({
      type: CompanyProfile,
      nullable: true,
      resolve: (company, _args, context) => (company.ticker ? profileByTicker(context).load(company.ticker) : null),
    }),
    quote: t.field({
      type: Quote,
      nullable: true,
      resolve: (company, _args, context) => (company.ticker ? quoteByTicker(context).load(company.ticker) : null),
    }),
    market: t.field({
      type: Ticker,
      nullable: true,
      description: 'The ticker view of the company’s stock (summary counts and more); null without a ticker.',
      resolve: (company) => (company.ticker ? { ticker: company.ticker, found: true } : null),
    }),
  }),
});
