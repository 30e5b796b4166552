import { z } from 'zod';
import type { RequestContext } from '../../shared/context.ts';
import { NotFoundError, UnauthorizedError } from '../../shared/errors.ts';
import { parseArguments, withoutNulls } from '../../shared/validation.ts';
import { builder } from '../builder.ts';
import { tickerSymbol } from '../tickers.ts';
import { profileByTicker, quoteByTicker, signalsByTicker, tradesByTicker } from '../ticker-loaders.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { Quote } from './quote.ts';
import { Signal } from './signal.ts';

/** Watchlists belong to one account: every read and write is scoped to the viewer's account. */
function accountOf(context: RequestContext): string {
  if (!context.viewer) throw new UnauthorizedError();
  return context.viewer.accountId;
}

export const WatchlistEntry = builder.prismaObject('WatchlistEntry', {
  description: 'A ticker on the caller’s watchlist, with its latest price, signal and congressional trade.',
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    companyName: t.exposeString('companyName'),
    addedAt: t.expose('createdAt', { type: 'DateTime' }),
    quote: t.field({ type: Quote, nullable: true, resolve: (entry, _args, context) => quoteByTicker(context).load(entry.ticker) }),
    latestSignal: t.field({
      type: Signal,
      nullable: true,
      resolve: async (entry, _args, context) => (await signalsByTicker(context, 1).load(entry.ticker))[0] ?? null,
    }),
    latestCongressionalTrade: t.field({
      type: CongressionalTrade,
      nullable: true,
      resolve: async (entry, _args, context) => (await tradesByTicker(context, 1).load(entry.ticker))[0] ?? null,
    }),
  }),
});

const AddWatchlistEntryInput = builder.inputType('AddWatchlistEntryInput', {
  fields: (t) => ({
    // Optional in the schema so a missing ticker is reported like any other invalid argument.
    ticker: t.string({ required: false, description: 'Required; at most 10 characters.' }),
    companyName: t.string({ required: false, description: 'Defaults to the profile’s or latest signal’s company name.' }),
  }),
});

const RemoveWatchlistEntryInput = builder.inputType('RemoveWatchlistEntryInput', {
  fields: (t) => ({ ticker: t.string({ required: true }) }),
});

const addInput = z.object({
  ticker: tickerSymbol,
  companyName: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

const AddWatchlistEntryPayload = builder
  .objectRef<{ entryId: number; created: boolean }>('AddWatchlistEntryPayload')
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean('created', { description: 'False when the ticker was already on the watchlist.' }),
      entry: t.prismaField({
        type: WatchlistEntry,
        resolve: (query, payload, _args, context) =>
          context.db.prisma.watchlistEntry.findUniqueOrThrow({ ...query, where: { id: payload.entryId } }),
      }),
    }),
  });

const RemoveWatchlistEntryPayload = builder
  .objectRef<{ ticker: string }>('RemoveWatchlistEntryPayload')
  .implement({
    fields: (t) => ({
      ticker: t.exposeString('ticker'),
      removed: t.boolean({ resolve: () => true }),
    }),
  });

/** A name for a ticker the client did not name: its profile, else its latest signal, else the symbol. */
async function companyNameOf(context: RequestContext, ticker: string): Promise<string> {
  const profile = await profileByTicker(context).load(ticker);
  if (profile) return profile.companyName;
  const signal = await context.db.prisma.signal.findFirst({ where: { ticker }, orderBy: { createdAt: 'desc' }, select: { companyName: true } });
  return signal?.companyName ?? ticker;
}

builder.queryFields((t) => ({
  watchlist: t.prismaField({
    type: [WatchlistEntry],
    description: 'The caller’s watchlist, in the order the tickers were added.',
    resolve: (query, _root, _args, context) =>
      context.db.prisma.watchlistEntry.findMany({ ...query, where: { accountId: accountOf(context) }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  }),
}));

builder.mutationFields((t) => ({
  addWatchlistEntry: t.field({
    type: AddWatchlistEntryPayload,
    description: 'Adds a ticker to the caller’s watchlist; adding one already there returns the existing entry.',
    args: { input: t.arg({ type: AddWatchlistEntryInput, required: true }) },
    resolve: async (_root, args, context) => {
      const accountId = accountOf(context);
      const input = parseArguments(addInput, withoutNulls(args.input));
      const existing = await context.db.prisma.watchlistEntry.findUnique({ where: { accountId_ticker: { accountId, ticker: input.ticker } } });
      if (existing) return { entryId: existing.id, created: false };
      const companyName = input.companyName ?? (await companyNameOf(context, input.ticker));
      // A concurrent add of the same ticker is not an error: upsert keeps the one entry.
      const entry = await context.db.prisma.watchlistEntry.upsert({
        where: { accountId_ticker: { accountId, ticker: input.ticker } },
        create: { accountId, ticker: input.ticker, companyName },
        update: {},
      });
      return { entryId: entry.id, created: true };
    },
  }),
  removeWatchlistEntry: t.field({
    type: RemoveWatchlistEntryPayload,
    description: 'Removes a ticker from the caller’s watchlist; a ticker not on it is not_found.',
    args: { input: t.arg({ type: RemoveWatchlistEntryInput, required: true }) },
    resolve: async (_root, args, context) => {
      const accountId = accountOf(context);
      const { ticker } = parseArguments(z.object({ ticker: tickerSymbol }), args.input);
      const { count } = await context.db.prisma.watchlistEntry.deleteMany({ where: { accountId, ticker } });
      if (count === 0) throw new NotFoundError(`Ticker ${ticker} on the watchlist`);
      return { ticker };
    },
  }),
}));
