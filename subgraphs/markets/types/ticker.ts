import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { signalHistoryStart } from '../signal-history.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { TICKER_FORMAT, isKnownTicker, tickerSymbol } from '../tickers.ts';
import { profileByTicker, quoteByTicker, signalsByTicker, tradesByTicker } from '../ticker-loaders.ts';
import { CompanyProfile } from './company-profile.ts';
import { CongressionalTrade, DEFAULT_TRADE_DAYS, daysAgo } from './congressional-trade.ts';
import { Quote } from './quote.ts';
import { signalCountsBetween } from '../rollups.ts';
import { Signal } from './signal.ts';

/** How many recent signals or trades a ticker view lists at most. */
export const MAX_RECENT = 50;
const recentLimit = z
  .number()
  .int()
  .min(1, `must be from 1 to ${MAX_RECENT}`)
  .max(MAX_RECENT, `must be from 1 to ${MAX_RECENT}`);

/**
 * `limit` of a per-ticker list (here and on Company). Built once: zod compiles an object schema on first use, and
 * this is parsed once per company of a federated page.
 */
export const recentLimitArguments = defineArguments({
  limit: argument('Int', recentLimit, { defaultValue: 10, description: `How many, 1-${MAX_RECENT}.` }),
});

const tickerSearch = defineArguments({
  symbol: argument('String', tickerSymbol, {
    required: 'validated',
    description: `The ticker symbol (${TICKER_FORMAT}).`,
  }),
});

interface TickerSummarySource {
  signals_total: number;
  signals_bullish: number;
  signals_bearish: number;
  signals_neutral: number;
  congress_trades: number;
  congress_buys: number;
  congress_sells: number;
}

/**
 * Counts for one ticker: signals within the plan's history, trades in force of the last 90 days. Whole days come
 * from the rollups (docs/api.md, "Rollups and freshness"), so the cost does not follow records (AAPL at 1M: 22k
 * signals counted in 28-186 ms; the signals' running totals answer in two index probes); the history's first,
 * partial day is counted from the signals themselves.
 */
async function tickerSummary(context: RequestContext, ticker: string): Promise<TickerSummarySource> {
  const since = signalHistoryStart(context.viewer?.plan) ?? new Date(0);
  const firstWholeDay = new Date(Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate() + 1));
  const [row] = await context.db.sql.query<TickerSummarySource>(
    `SELECT (p.signals + d.signals)::int AS signals_total,
            (p.bullish + d.bullish)::int AS signals_bullish,
            (p.bearish + d.signals - d.bullish - d.neutral)::int AS signals_bearish,
            (p.neutral + d.neutral)::int AS signals_neutral,
            c.*
       FROM (SELECT count(*) AS signals,
                    count(*) FILTER (WHERE sentiment = 'BULLISH') AS bullish,
                    count(*) FILTER (WHERE sentiment = 'BEARISH') AS bearish,
                    count(*) FILTER (WHERE sentiment = 'NEUTRAL') AS neutral
               FROM signals WHERE ticker = $1 AND created_at >= $2 AND created_at < $3) AS p,
            ${signalCountsBetween('$1', '$5::date', `'infinity'::date`)} AS d,
            (SELECT coalesce(sum(trades), 0)::int AS congress_trades,
                    coalesce(sum(purchases), 0)::int AS congress_buys,
                    coalesce(sum(sales), 0)::int AS congress_sells
               FROM market_trade_days WHERE ticker = $1 AND trade_date >= $4) AS c`,
    [ticker, since, firstWholeDay, daysAgo(DEFAULT_TRADE_DAYS), firstWholeDay.toISOString().slice(0, 10)],
  );
  return row!;
}

const TickerSummary = builder.objectRef<TickerSummarySource>('TickerSummary').implement({
  description: 'Signal counts within the plan’s history; congressional trade counts of the last 90 days.',
  fields: (t) => ({
    signalsTotal: t.exposeInt('signals_total', { description: 'Signals within the plan’s history.' }),
    signalsBullish: t.exposeInt('signals_bullish', { description: 'Of them, bullish.' }),
    signalsBearish: t.exposeInt('signals_bearish', { description: 'Of them, bearish.' }),
    signalsNeutral: t.exposeInt('signals_neutral', { description: 'Of them, neutral.' }),
    congressTrades: t.exposeInt('congress_trades', {
      description: 'Congressional trades in force with a trade date in the last 90 days.',
    }),
    congressBuys: t.exposeInt('congress_buys', { description: 'Of them, purchases.' }),
    congressSells: t.exposeInt('congress_sells', { description: 'Sales and partial sales.' }),
  }),
});

/** Everything about one ticker: what the ticker search returns. */
export const Ticker = builder.objectRef<{ ticker: string; found: boolean }>('Ticker').implement({
  description: 'Everything about one ticker: profile, latest quote, counts, recent signals and trades.',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The ticker in its stored form, upper case (`BRK-B`).' }),
    found: t.exposeBoolean('found', {
      description: 'False for a ticker with no profile, price, signal, trade or company.',
    }),
    profile: t.field({
      type: CompanyProfile,
      nullable: true,
      description: 'The cached company profile; null when there is none.',
      resolve: (view, _args, context) => profileByTicker(context).load(view.ticker),
    }),
    quote: t.field({
      type: Quote,
      nullable: true,
      description: 'The latest stored daily close; null without prices.',
      resolve: (view, _args, context) => quoteByTicker(context).load(view.ticker),
    }),
    summary: t.field({
      type: TickerSummary,
      description: 'Signal and congressional trade counts.',
      resolve: (view, _args, context) => tickerSummary(context, view.ticker),
    }),
    signals: t.field({
      type: [Signal],
      description: 'The latest signals, newest first.',
      args: recentLimitArguments.graphql(t.arg),
      resolve: (view, args, context) =>
        signalsByTicker(context, recentLimitArguments.parse(args).limit).load(view.ticker),
    }),
    congressionalTrades: t.field({
      type: [CongressionalTrade],
      description: 'The latest congressional trades, newest trade first.',
      args: recentLimitArguments.graphql(t.arg),
      resolve: (view, args, context) =>
        tradesByTicker(context, recentLimitArguments.parse(args).limit).load(view.ticker),
    }),
  }),
});

builder.queryFields((t) => ({
  ticker: t.field({
    type: Ticker,
    description:
      'The ticker search: profile, quote, counts, recent signals and trades. Required: symbol (at most 10 characters).',
    args: tickerSearch.graphql(t.arg),
    resolve: async (_root, args, context) => {
      const { symbol } = tickerSearch.parse(args);
      return { ticker: symbol, found: await isKnownTicker(context, symbol) };
    },
  }),
}));
