import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import type { RequestContext } from '../../platform/context.ts';
import { parseUuid } from '../../platform/ids.ts';
import { pageArgument, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import type { ArgumentValues } from '../../platform/arguments.ts';
import { definePageObject, pageSource } from '../../platform/page-object.ts';
import { PageInfo, builder } from '../builder.ts';
import { isoDate } from '../../platform/dates.ts';
import { disclosureLagDays, isLateDisclosure, parseAmountRange } from '../disclosure.ts';
import { matchingTradeMemberNames, memberQuery } from '../member-match.ts';
import { chamberOfTitle } from '../names.ts';
import { TICKER_FORMAT, tickerSymbol } from '../tickers.ts';
import { committeeMemberIds, committeeName } from '../committee-members.ts';
import { Chamber, Party } from './member.ts';
import { countTotal } from '../../platform/totals.ts';
import { reads } from '../../platform/selected-fields.ts';

export const TradeType = builder.enumType('TradeType', {
  description: 'What a disclosed trade did.',
  values: {
    purchase: { description: 'A purchase.' },
    sale: { description: 'A sale of the whole holding.' },
    sale_partial: { description: 'A sale of part of the holding.' },
    exchange: { description: 'An exchange of one asset for another.' },
  },
});

/** The congressional trades window when a request names none (docs/design.md). */
export const DEFAULT_TRADE_DAYS = 90;

export const CongressionalTrade = builder.prismaObject('CongressionalTrade', {
  description: 'A stock trade disclosed by a member of Congress (a later amendment replaces the original).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The trade’s id, a UUID.' }),
    memberName: t.exposeString('memberName', { description: '<first> <last>' }),
    bioguideId: t.exposeString('bioguideId', {
      nullable: true,
      description: 'Bioguide id of the member; null when the filer could not be matched to one.',
    }),
    member: t.relation('member', { nullable: true, description: 'The member; null when not matched.' }),
    party: t.field({
      type: Party,
      nullable: true,
      description: 'The member’s party; null when not matched.',
      extensions: reads('party'),
      resolve: (trade) => trade.party as typeof Party.$inferType | null,
    }),
    chamber: t.field({
      type: Chamber,
      description: 'The chamber the disclosure was filed with.',
      extensions: reads('chamber'),
      resolve: (trade) => trade.chamber as typeof Chamber.$inferType,
    }),
    ticker: t.exposeString('ticker', {
      nullable: true,
      description: 'The traded ticker; null when none was disclosed.',
    }),
    assetDescription: t.exposeString('assetDescription', { description: 'The asset as disclosed.' }),
    assetType: t.exposeString('assetType', { description: 'stock, option, bond, fund or other.' }),
    optionDetail: t.exposeString('optionDetail', {
      nullable: true,
      description: 'An option trade’s contract as disclosed (call/put, strike, expiry); null for other assets.',
    }),
    tradeType: t.field({
      type: TradeType,
      description: 'What the trade did.',
      extensions: reads('tradeType'),
      resolve: (trade) => trade.tradeType as typeof TradeType.$inferType,
    }),
    owner: t.exposeString('owner', { description: 'self, spouse, joint or dependent.' }),
    amountRange: t.exposeString('amountRange', {
      description: 'The disclosure bucket as filed, e.g. $1,001 - $15,000.',
    }),
    amountLow: t.float({
      nullable: true,
      description: 'Lower bound of the bucket in USD, parsed from `amountRange`.',
      extensions: reads('amountRange'),
      resolve: (trade) => parseAmountRange(trade.amountRange).low,
    }),
    amountHigh: t.float({
      nullable: true,
      description: 'Upper bound of the bucket in USD; null for an open-ended one (Over $50,000,000).',
      extensions: reads('amountRange'),
      resolve: (trade) => parseAmountRange(trade.amountRange).high,
    }),
    tradeDate: t.expose('tradeDate', { type: 'Date', description: 'The day of the trade.' }),
    disclosureDate: t.expose('disclosureDate', {
      type: 'Date',
      nullable: true,
      description: 'The day it was disclosed; null while undisclosed.',
    }),
    disclosureLagDays: t.int({
      nullable: true,
      description: 'Days from trade to disclosure; null while undisclosed.',
      extensions: reads('tradeDate', 'disclosureDate'),
      resolve: (trade) => disclosureLagDays(trade.tradeDate, trade.disclosureDate),
    }),
    late: t.boolean({
      description: 'Disclosed more than 45 days after the trade (the STOCK Act deadline).',
      extensions: reads('tradeDate', 'disclosureDate'),
      resolve: (trade) => isLateDisclosure(disclosureLagDays(trade.tradeDate, trade.disclosureDate)),
    }),
    source: t.exposeString('source', { description: 'The source it was imported from, e.g. house-trades.' }),
    filingUrl: t.exposeString('filingUrl', { nullable: true, description: 'Address of the filed disclosure.' }),
  }),
});

const tradeFilterSpecs = {
  ticker: argument('String', tickerSymbol, { description: `Trades of this ticker (${TICKER_FORMAT}).` }),
  chamber: argument(Chamber, z.string(), { description: 'Trades disclosed to this chamber.' }),
  party: argument(Party, z.string(), { description: 'Trades by members of this party.' }),
  tradeType: argument(TradeType, z.string(), { description: 'Trades of this type.' }),
  member: argument('String', memberQuery, {
    description:
      'A partial name in either order (Pelosi, nancy pelosi, Pelosi, Nancy), typos tolerated when nothing matches as written; a title (Sen., Rep.) is a chamber.',
  }),
  committee: argument('String', committeeName, {
    description: 'Trades by members who sit on this full committee, named as on a member (Armed Services).',
  }),
  from: argument('String', isoDate, { description: 'Earliest trade date, YYYY-MM-DD.' }),
  to: argument('String', isoDate, { description: 'Latest trade date, YYYY-MM-DD.' }),
  days: argument('Int', z.number().int().min(1, 'must be from 1 to 3650').max(3650, 'must be from 1 to 3650'), {
    description: 'The last N days; 90 when neither from nor to is given.',
  }),
};

const tradeFilter = defineArguments(tradeFilterSpecs, (object) =>
  object.superRefine((values, issues) => {
    const filter = values as ArgumentValues<typeof tradeFilterSpecs>;
    if (filter.from && filter.to && filter.from > filter.to) {
      issues.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
    }
    if (filter.days !== undefined && (filter.from || filter.to)) {
      issues.addIssue({ code: 'custom', path: ['days'], message: 'cannot be combined with from or to' });
    }
  }),
);

/** Midnight UTC `days` days ago: trade dates are calendar dates. */
export function daysAgo(days: number, now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - days * 86_400_000);
}

/** Trades still in force: an amended disclosure is replaced by its amendment. */
export const CURRENT_TRADES: Prisma.CongressionalTradeWhereInput = { supersededById: null };

/** The one place a trade filter becomes a Prisma `where` (lists, connections and the Member view use it). */
export async function tradeWhere(args: object, context: RequestContext): Promise<Prisma.CongressionalTradeWhereInput> {
  const filter = tradeFilter.parse(args);
  const days = filter.days ?? (filter.from || filter.to ? undefined : DEFAULT_TRADE_DAYS);
  const names = filter.member === undefined ? undefined : await matchingTradeMemberNames(context.db.sql, filter.member);
  const seats = filter.committee === undefined ? undefined : await committeeMemberIds(context.db.sql, filter.committee);
  // A title in the name is a chamber: `member=Sen. Warren` is `member=warren&chamber=senate`.
  const titled = filter.member === undefined ? undefined : chamberOfTitle(filter.member);
  const contradicts = titled !== undefined && filter.chamber !== undefined && titled !== filter.chamber;
  return {
    ...CURRENT_TRADES,
    ticker: filter.ticker,
    chamber: filter.chamber ?? titled,
    party: filter.party,
    tradeType: filter.tradeType,
    memberName: names && { in: contradicts ? [] : names },
    bioguideId: seats && { in: seats },
    tradeDate: { gte: days === undefined ? filter.from : daysAgo(days), lte: filter.to },
  };
}

const TRADE_PAGING = { defaultPerPage: 50, maxPerPage: 200, sizeArgument: 'limit' };
// Served by the partial (trade_date DESC, id DESC) index over trades in force, so LIMIT stops after the page.
const TRADE_ORDER: Prisma.CongressionalTradeOrderByWithRelationInput[] = [{ tradeDate: 'desc' }, { id: 'desc' }];

const TradePage = definePageObject(
  builder,
  PageInfo,
  'CongressionalTradePage',
  CongressionalTrade,
  'CongressionalTrade',
);

const filterArgs = builder.args((t) => tradeFilter.graphql(t));

builder.queryFields((t) => ({
  congressionalTrades: t.field({
    type: TradePage,
    description: 'Congressional trades, newest trade first.',
    args: { ...filterArgs, page: pageArgument(t.arg), limit: pageSizeArgument(t.arg, TRADE_PAGING) },
    resolve: async (_root, args, context) => {
      const paging = resolvePaging({ page: args.page, size: args.limit }, TRADE_PAGING);
      const where = await tradeWhere(args, context);
      return pageSource(where, TRADE_ORDER, paging, () => countTotal(context.db, 'CongressionalTrade', where));
    },
  }),
  congressionalTradesConnection: t.prismaConnection({
    type: CongressionalTrade,
    cursor: 'id',
    description: 'The same trades as `congressionalTrades`, paged by cursor (ordered by id).',
    args: filterArgs,
    resolve: async (query, _root, args, context) =>
      context.db.prisma.congressionalTrade.findMany({ ...query, where: await tradeWhere(args, context) }),
  }),
  congressionalTrade: t.prismaField({
    type: CongressionalTrade,
    nullable: true,
    description: 'One trade by id (amended ones included); null when unknown.',
    args: { id: t.arg.id({ required: true, description: 'The trade’s UUID.' }) },
    resolve: (query, _root, args, context) => {
      return context.db.prisma.congressionalTrade.findUnique({ ...query, where: { id: parseUuid(args.id) } });
    },
  }),
}));
