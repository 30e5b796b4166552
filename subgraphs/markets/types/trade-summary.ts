import { z } from 'zod';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { formatDate } from '../../platform/dates.ts';
import { DEFAULT_TRADE_DAYS, daysAgo } from './congressional-trade.ts';
import { Chamber, Party } from './member.ts';

interface MemberActivity {
  bioguide_id: string | null;
  member_name: string;
  party: string | null;
  chamber: string;
  trades: number;
  purchases: number;
  sales: number;
}

interface TickerActivity {
  ticker: string;
  trades: number;
  purchases: number;
  sales: number;
  members: number;
}

const MemberActivityRef = builder.objectRef<MemberActivity>('MemberTradeActivity').implement({
  description: 'One member’s trades in the window.',
  fields: (t) => ({
    bioguideId: t.exposeString('bioguide_id', { nullable: true, description: 'Bioguide id; null when not matched.' }),
    memberName: t.exposeString('member_name', { description: '<first> <last>' }),
    party: t.field({
      type: Party,
      nullable: true,
      description: 'The member’s party; null when not matched.',
      resolve: (row) => row.party as typeof Party.$inferType | null,
    }),
    chamber: t.field({
      type: Chamber,
      description: 'The member’s chamber.',
      resolve: (row) => row.chamber as typeof Chamber.$inferType,
    }),
    trades: t.exposeInt('trades', { description: 'Trades in force in the window.' }),
    purchases: t.exposeInt('purchases', { description: 'Of them, purchases.' }),
    sales: t.exposeInt('sales', { description: 'Sales and partial sales.' }),
  }),
});

const TickerActivityRef = builder.objectRef<TickerActivity>('TickerTradeActivity').implement({
  description: 'One ticker’s congressional trades in the window.',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The traded ticker.' }),
    trades: t.exposeInt('trades', { description: 'Trades in force in the window.' }),
    purchases: t.exposeInt('purchases', { description: 'Of them, purchases.' }),
    sales: t.exposeInt('sales', { description: 'Sales and partial sales.' }),
    members: t.exposeInt('members', { description: 'Distinct members who traded it.' }),
  }),
});

interface SummarySource {
  days: number;
  from: Date;
  totalTrades: number;
  topMembers: MemberActivity[];
  topTickers: TickerActivity[];
}

const TradeSummary = builder.objectRef<SummarySource>('CongressionalTradeSummary').implement({
  description: 'The most active members and most-traded tickers of a recent window.',
  fields: (t) => ({
    days: t.exposeInt('days', { description: 'The window’s length in days.' }),
    from: t.field({ type: 'Date', description: 'First trade date counted.', resolve: (summary) => summary.from }),
    totalTrades: t.exposeInt('totalTrades', { description: 'Trades in force traded in the window.' }),
    topMembers: t.field({
      type: [MemberActivityRef],
      description: 'The members with the most trades, most first.',
      resolve: (summary) => summary.topMembers,
    }),
    topTickers: t.field({
      type: [TickerActivityRef],
      description: 'The tickers with the most trades, most first.',
      resolve: (summary) => summary.topTickers,
    }),
  }),
});

const summaryArgs = defineArguments({
  days: argument(
    'Int',
    z.number().int().min(1, 'must be from 1 to 3650').max(3650, 'must be from 1 to 3650').default(DEFAULT_TRADE_DAYS),
    { description: `The window: trades of the last N days, 1-3650 (default ${DEFAULT_TRADE_DAYS}).` },
  ),
  limit: argument('Int', z.number().int().min(1, 'must be from 1 to 50').max(50, 'must be from 1 to 50').default(10), {
    description: 'How many members and tickers each, 1-50 (default 10).',
  }),
});

// Counted from the same rows the trade list shows (trades in force within the window), through the market
// rollups: trades per day and member, per day and ticker, and each member's latest trade of each ticker.
const SUMS = `sum(trades)::int AS trades, sum(purchases)::int AS purchases, sum(sales)::int AS sales`;

builder.queryFields((t) => ({
  congressionalTradesSummary: t.field({
    type: TradeSummary,
    description: 'Top members and most-traded tickers of the last `days` days (90 by default), most trades first.',
    args: summaryArgs.graphql(t.arg),
    resolve: async (_root, args, context) => {
      const { days, limit } = summaryArgs.parse(args);
      const from = daysAgo(days);
      const since = formatDate(from);
      const [topMembers, topTickers, [total]] = await Promise.all([
        context.db.sql.query<MemberActivity>(
          `SELECT nullif(bioguide_id, '') AS bioguide_id, member_name, max(party) AS party, max(chamber) AS chamber, ${SUMS}
             FROM market_member_days WHERE trade_date >= $1::date
            GROUP BY bioguide_id, member_name ORDER BY trades DESC, member_name LIMIT $2`,
          [since, limit],
        ),
        context.db.sql.query<TickerActivity>(
          `SELECT top.*, (SELECT count(*)::int FROM market_ticker_members m
                           WHERE m.ticker = top.ticker AND m.last_trade_date >= $1::date) AS members
             FROM (SELECT ticker, ${SUMS} FROM market_trade_days WHERE trade_date >= $1::date AND ticker <> ''
                    GROUP BY ticker ORDER BY trades DESC, ticker LIMIT $2) AS top
            ORDER BY trades DESC, ticker`,
          [since, limit],
        ),
        context.db.sql.query<{ trades: number }>(
          `SELECT coalesce(sum(trades), 0)::int AS trades FROM market_trade_days WHERE trade_date >= $1::date`,
          [since],
        ),
      ]);
      const totalTrades = total!.trades;
      return { days, from, totalTrades, topMembers, topTickers };
    },
  }),
}));
