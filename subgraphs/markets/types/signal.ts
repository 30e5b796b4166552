import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import type { RequestContext } from '../../platform/context.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { parseUuid } from '../../platform/ids.ts';
import { pageArgument, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import { signalHistoryStart } from '../signal-history.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { definePageObject, pageSource } from '../../platform/page-object.ts';
import type { PageSource } from '../../platform/page-object.ts';
import { PageInfo, builder } from '../builder.ts';
import { TICKER_FORMAT, isKnownTicker, tickerSymbol } from '../tickers.ts';
import { countTotal } from '../../platform/totals.ts';
import { reads } from '../../platform/selected-fields.ts';

// Enum values are the documented wire values, so REST and GraphQL spell them alike.
export const SIGNAL_TYPES = ['sec_filing', 'insider_buy', 'insider_sell', 'earnings_preview', 'macro'] as const;
export const SignalType = builder.enumType('SignalType', {
  description: 'What a signal was derived from.',
  values: {
    sec_filing: { description: 'An SEC filing such as an 8-K.' },
    insider_buy: { description: 'An insider’s open-market purchase (Form 4).' },
    insider_sell: { description: 'An insider’s sale (Form 4).' },
    earnings_preview: { description: 'An upcoming earnings report.' },
    macro: { description: 'Macroeconomic data.' },
  } satisfies Record<(typeof SIGNAL_TYPES)[number], object>,
});
export const Sentiment = builder.enumType('Sentiment', {
  description: 'Which way a signal points for the stock.',
  values: {
    BULLISH: { description: 'Good for the stock.' },
    BEARISH: { description: 'Bad for the stock.' },
    NEUTRAL: { description: 'Neither, or unclear.' },
  },
});

export const Signal = builder.prismaObject('Signal', {
  description: 'A market signal from an 8-K filing, a Form 4 insider trade, an earnings preview or macro data.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The signal’s id, a UUID.' }),
    ticker: t.exposeString('ticker', { description: 'The ticker the signal is about.' }),
    companyName: t.exposeString('companyName', { description: 'The company’s name.' }),
    signalType: t.field({
      type: SignalType,
      description: 'What the signal was derived from.',
      extensions: reads('signalType'),
      resolve: (signal) => signal.signalType as typeof SignalType.$inferType,
    }),
    filingType: t.exposeString('filingType', { description: 'The form it came from, e.g. 8-K or 4.' }),
    aiSummary: t.exposeString('aiSummary', { description: 'A one-paragraph summary of what happened.' }),
    materialityScore: t.exposeInt('materialityScore', { description: '0-100.' }),
    sentiment: t.field({
      type: Sentiment,
      description: 'Which way the signal points.',
      extensions: reads('sentiment'),
      resolve: (signal) => signal.sentiment as typeof Sentiment.$inferType,
    }),
    urgent: t.exposeBoolean('urgent', {
      description: 'Flagged for immediate attention (imported: materiality 80 or more).',
    }),
    sourceUrl: t.exposeString('sourceUrl', { description: 'Address of the source document.' }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the signal was recorded; plan history limits count back from it.',
    }),
  }),
});

const signalFilter = defineArguments({
  ticker: argument('String', tickerSymbol, { description: `Signals about this ticker (${TICKER_FORMAT}).` }),
  signalType: argument(SignalType, z.string(), { description: 'Signals of this type.' }),
  sentiment: argument(Sentiment, z.string(), { description: 'Signals of this sentiment.' }),
});

// One ticker's signals: the filter's ticker rule, required.
const tickerSignalsArguments = defineArguments({ ticker: { ...signalFilter.specs.ticker, required: true } });

/** The one place a signal filter becomes a Prisma `where`, cut to the history the viewer's plan allows. */
export function signalWhere(args: object, context: RequestContext): Prisma.SignalWhereInput {
  const filter = signalFilter.parse(args);
  return {
    ticker: filter.ticker,
    signalType: filter.signalType,
    sentiment: filter.sentiment,
    createdAt: { gte: signalHistoryStart(context.viewer?.plan) },
  };
}

const SIGNAL_PAGING = { defaultPerPage: 20, maxPerPage: 200, sizeArgument: 'limit' };
// Served by the (…, created_at DESC, id DESC) indexes, so LIMIT stops after the page.
const SIGNAL_ORDER: Prisma.SignalOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/** One offset page of the signals a `where` selects, newest first. */
function signalPage(
  where: Prisma.SignalWhereInput,
  args: { page?: number | null; limit?: number | null },
  context: RequestContext,
): PageSource {
  const paging = resolvePaging({ page: args.page, size: args.limit }, SIGNAL_PAGING);
  return pageSource(where, SIGNAL_ORDER, paging, () => countTotal(context.db, 'Signal', where));
}

const SignalPage = definePageObject(builder, PageInfo, 'SignalPage', Signal, 'Signal');

builder.queryFields((t) => ({
  signals: t.field({
    type: SignalPage,
    description: 'Signals, newest first, within the history of the caller’s plan.',
    args: {
      ...signalFilter.graphql(t.arg),
      page: pageArgument(t.arg),
      limit: pageSizeArgument(t.arg, SIGNAL_PAGING),
    },
    resolve: (_root, args, context) => signalPage(signalWhere(args, context), args, context),
  }),
  tickerSignals: t.field({
    type: SignalPage,
    description:
      'Every signal of one ticker (within the plan’s history), newest first; an unknown ticker is not_found.',
    args: {
      ...tickerSignalsArguments.graphql(t.arg),
      page: pageArgument(t.arg),
      limit: pageSizeArgument(t.arg, SIGNAL_PAGING),
    },
    resolve: async (_root, args, context) => {
      const where = signalWhere(args, context);
      const ticker = where.ticker as string;
      if (!(await isKnownTicker(context, ticker))) throw new NotFoundError(`Ticker ${ticker}`);
      return signalPage(where, args, context);
    },
  }),
  signal: t.prismaField({
    type: Signal,
    nullable: true,
    description: 'One signal by id; null when unknown or older than the plan’s history.',
    args: { id: t.arg.id({ required: true, description: 'The signal’s UUID.' }) },
    resolve: (query, _root, args, context) => {
      return context.db.prisma.signal.findFirst({
        ...query,
        where: { id: parseUuid(args.id), createdAt: { gte: signalHistoryStart(context.viewer?.plan) } },
      });
    },
  }),
  signalsConnection: t.prismaConnection({
    type: Signal,
    cursor: 'id',
    description: 'The same signals as `signals`, paged by cursor (ordered by id).',
    args: signalFilter.graphql(t.arg),
    resolve: (query, _root, args, context) =>
      context.db.prisma.signal.findMany({ ...query, where: signalWhere(args, context) }),
  }),
}));
