import { z } from 'zod';
import { accountOf } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { pageArgument, pageInfoSource, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import type { PageInfoSource } from '../../platform/paging.ts';
import { countTotal } from '../../platform/totals.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { PageInfo, builder } from '../builder.ts';
import { TICKER_FORMAT, tickerSymbol } from '../tickers.ts';
import { PAGE_DESCRIPTIONS } from '../../platform/page-object.ts';
import { profileByTicker, quoteByTicker, signalsByTicker, tradesByTicker } from '../ticker-loaders.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { Quote } from './quote.ts';
import { Signal } from './signal.ts';

/** The most tickers one account's watchlist holds: each entry is enriched on every listing. */
export const WATCHLIST_MAX_ENTRIES = 500;

const WATCHLIST_PAGING = { defaultPerPage: 50, maxPerPage: 200, sizeArgument: 'limit' };

export const WatchlistEntry = builder.prismaObject('WatchlistEntry', {
  description: 'A ticker on the caller’s watchlist, with its latest price, signal and congressional trade.',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The ticker in its stored form, upper case (`BRK-B`).' }),
    companyName: t.exposeString('companyName', {
      description: 'The company’s name, as given or looked up when added.',
    }),
    addedAt: t.expose('createdAt', { type: 'DateTime', description: 'When the ticker was added.' }),
    quote: t.field({
      type: Quote,
      nullable: true,
      description: 'The latest stored daily close; null without prices.',
      resolve: (entry, _args, context) => quoteByTicker(context).load(entry.ticker),
    }),
    latestSignal: t.field({
      type: Signal,
      nullable: true,
      description: 'The newest signal within the plan’s history; null when there is none.',
      resolve: async (entry, _args, context) => (await signalsByTicker(context, 1).load(entry.ticker))[0] ?? null,
    }),
    latestCongressionalTrade: t.field({
      type: CongressionalTrade,
      nullable: true,
      description: 'The newest congressional trade in force; null when there is none.',
      resolve: async (entry, _args, context) => (await tradesByTicker(context, 1).load(entry.ticker))[0] ?? null,
    }),
  }),
});

const addInput = defineArguments({
  ticker: argument('String', tickerSymbol, {
    required: 'validated',
    description: `Required: the ticker symbol (${TICKER_FORMAT}).`,
  }),
  companyName: argument(
    'String',
    z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    {
      description: 'Defaults to the profile’s or latest signal’s company name.',
    },
  ),
});

const removeInput = defineArguments({
  ticker: argument('String', tickerSymbol, { required: true, description: `The ticker to remove (${TICKER_FORMAT}).` }),
});

const AddWatchlistEntryInput = builder.inputType('AddWatchlistEntryInput', {
  description: 'A ticker to add to the caller’s watchlist.',
  fields: (t) => addInput.graphql(t),
});

const RemoveWatchlistEntryInput = builder.inputType('RemoveWatchlistEntryInput', {
  description: 'A ticker to remove from the caller’s watchlist.',
  fields: (t) => removeInput.graphql(t),
});

const AddWatchlistEntryPayload = builder
  .objectRef<{ entryId: number; created: boolean }>('AddWatchlistEntryPayload')
  .implement({
    description: 'The watchlist entry, and whether this call added it.',
    fields: (t) => ({
      created: t.exposeBoolean('created', { description: 'False when the ticker was already on the watchlist.' }),
      entry: t.prismaField({
        type: WatchlistEntry,
        description: 'The entry: new, or the one already there.',
        resolve: (query, payload, _args, context) =>
          context.db.prisma.watchlistEntry.findUniqueOrThrow({ ...query, where: { id: payload.entryId } }),
      }),
    }),
  });

const RemoveWatchlistEntryPayload = builder.objectRef<{ ticker: string }>('RemoveWatchlistEntryPayload').implement({
  description: 'The ticker removed from the watchlist.',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The ticker in its stored form.' }),
    removed: t.boolean({
      description: 'Always true: a ticker not on the watchlist is not_found.',
      resolve: () => true,
    }),
  }),
});

/** A name for a ticker the client did not name: its profile, else its latest signal, else the symbol. */
async function companyNameOf(context: RequestContext, ticker: string): Promise<string> {
  const profile = await profileByTicker(context).load(ticker);
  if (profile) return profile.companyName;
  const signal = await context.db.prisma.signal.findFirst({
    where: { ticker },
    orderBy: { createdAt: 'desc' },
    select: { companyName: true },
  });
  return signal?.companyName ?? ticker;
}

interface WatchlistPageSource {
  accountId: string;
  skip: number;
  take: number;
  pageInfo: PageInfoSource;
}

const WatchlistPage = builder.objectRef<WatchlistPageSource>('WatchlistPage').implement({
  description: PAGE_DESCRIPTIONS.page,
  fields: (t) => ({
    nodes: t.prismaField({
      type: [WatchlistEntry],
      description: PAGE_DESCRIPTIONS.nodes,
      resolve: (query, page, _args, context) =>
        context.db.prisma.watchlistEntry.findMany({
          ...query,
          where: { accountId: page.accountId },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          skip: page.skip,
          take: page.take,
        }),
    }),
    pageInfo: t.field({ type: PageInfo, description: PAGE_DESCRIPTIONS.pageInfo, resolve: (page) => page.pageInfo }),
  }),
});

builder.queryFields((t) => ({
  // The whole list stays as it was for existing clients; the cap bounds it.
  watchlist: t.prismaField({
    type: [WatchlistEntry],
    description: `The caller’s watchlist, in the order the tickers were added (at most ${WATCHLIST_MAX_ENTRIES} tickers; \`watchlistPage\` pages it).`,
    resolve: (query, _root, _args, context) =>
      context.db.prisma.watchlistEntry.findMany({
        ...query,
        where: { accountId: accountOf(context) },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
  }),
  watchlistPage: t.field({
    type: WatchlistPage,
    description: 'One page of the caller’s watchlist, in the order the tickers were added.',
    args: { page: pageArgument(t.arg), limit: pageSizeArgument(t.arg, WATCHLIST_PAGING) },
    resolve: (_root, args, context) => {
      const accountId = accountOf(context);
      const paging = resolvePaging({ page: args.page, size: args.limit }, WATCHLIST_PAGING);
      const pageInfo = pageInfoSource(paging, () => countTotal(context.db, 'WatchlistEntry', { accountId }));
      return { accountId, skip: paging.skip, take: paging.perPage, pageInfo };
    },
  }),
}));

/**
 * Adds the entry unless the watchlist is full. An advisory lock per account serialises concurrent adds, so
 * the count and the insert agree and the cap holds exactly.
 */
async function addWithinCap(
  context: RequestContext,
  accountId: string,
  ticker: string,
  companyName: string,
): Promise<number> {
  return context.db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`watchlist:${accountId}`}))::text`;
    const held = await tx.watchlistEntry.count({ where: { accountId } });
    if (held >= WATCHLIST_MAX_ENTRIES) {
      throw new ConflictError(
        `The watchlist holds ${WATCHLIST_MAX_ENTRIES} tickers, the most an account may keep; remove one before adding another.`,
      );
    }
    // A concurrent add of the same ticker is not an error: upsert keeps the one entry.
    const entry = await tx.watchlistEntry.upsert({
      where: { accountId_ticker: { accountId, ticker } },
      create: { accountId, ticker, companyName },
      update: {},
    });
    return entry.id;
  });
}

builder.mutationFields((t) => ({
  addWatchlistEntry: t.field({
    type: AddWatchlistEntryPayload,
    description: `Adds a ticker to the caller’s watchlist; adding one already there returns the existing entry; a full watchlist (${WATCHLIST_MAX_ENTRIES}) is a conflict.`,
    args: { input: t.arg({ type: AddWatchlistEntryInput, required: true, description: 'The ticker to add.' }) },
    resolve: async (_root, args, context) => {
      const accountId = accountOf(context);
      const input = addInput.parse(args.input);
      const existing = await context.db.prisma.watchlistEntry.findUnique({
        where: { accountId_ticker: { accountId, ticker: input.ticker } },
      });
      if (existing) return { entryId: existing.id, created: false };
      const companyName = input.companyName ?? (await companyNameOf(context, input.ticker));
      return { entryId: await addWithinCap(context, accountId, input.ticker, companyName), created: true };
    },
  }),
  removeWatchlistEntry: t.field({
    type: RemoveWatchlistEntryPayload,
    description: 'Removes a ticker from the caller’s watchlist; a ticker not on it is not_found.',
    args: { input: t.arg({ type: RemoveWatchlistEntryInput, required: true, description: 'The ticker to remove.' }) },
    resolve: async (_root, args, context) => {
      const accountId = accountOf(context);
      const { ticker } = removeInput.parse(args.input);
      const { count } = await context.db.prisma.watchlistEntry.deleteMany({ where: { accountId, ticker } });
      if (count === 0) throw new NotFoundError(`Ticker ${ticker} on the watchlist`);
      return { ticker };
    },
  }),
}));
