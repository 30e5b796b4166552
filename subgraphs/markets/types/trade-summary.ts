import { z } from 'zod';
import { parseArguments } from '../../shared/validation.ts';
import { builder } from '../builder.ts';
import { CURRENT_TRADES, DEFAULT_TRADE_DAYS, daysAgo } from './congressional-trade.ts';
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
  fields: (t) => ({
    bioguideId: t.exposeString('bioguide_id', { nullable: true }),
    memberName: t.exposeString('member_name'),
    party: t.field({ type: Party, nullable: true, resolve: (row) => row.party as typeof Party.$inferType | null }),
    chamber: t.field({ type: Chamber, resolve: (row) => row.chamber as typeof Chamber.$inferType }),
    trades: t.exposeInt('trades'),
    purchases: t.exposeInt('purchases'),
    sales: t.exposeInt('sales', { description: 'Sales and partial sales.' }),
  }),
});

const TickerActivityRef = builder.objectRef<TickerActivity>('TickerTradeActivity').implement({
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    trades: t.exposeInt('trades'),
    purchases: t.exposeInt('purchases'),
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
    days: t.exposeInt('days'),
    from: t.field({ type: 'Date', description: 'First trade date counted.', resolve: (summary) => summary.from }),
    totalTrades: t.exposeInt('totalTrades'),
    topMembers: t.field({ type: [MemberActivityRef], resolve: (summary) => summary.topMembers }),
    topTickers: t.field({ type: [TickerActivityRef], resolve: (summary) => summary.topTickers }),
  }),
});

const summaryArgs = z.object({
  days: z.number().int().min(1, 'must be from 1 to 3650').max(3650, 'must be from 1 to 3650'),
  limit: z.number().int().min(1, 'must be from 1 to 50').max(50, 'must be from 1 to 50'),
});

// Counted from the same rows the trade list shows: trades in force within the window.
const COUNTS = `count(*)::int AS trades,
  (count(*) FILTER (WHERE trade_type = 'purchase'))::int AS purchases,
  (count(*) FILTER (WHERE trade_type IN ('sale', 'sale_partial')))::int AS sales`;

builder.queryFields((t) => ({
  congressionalTradesSummary: t.field({
    type: TradeSummary,
    description: 'Top members and most-traded tickers of the last `days` days (90 by default), most trades first.',
    args: { days: t.arg.int({ required: false }), limit: t.arg.int({ required: false }) },
    resolve: async (_root, args, context) => {
      const { days, limit } = parseArguments(summaryArgs, { days: args.days ?? DEFAULT_TRADE_DAYS, limit: args.limit ?? 10 });
      const from = daysAgo(days);
      const window = `superseded_by_id IS NULL AND trade_date >= $1`;
      const [topMembers, topTickers, totalTrades] = await Promise.all([
        context.db.sql.query<MemberActivity>(
          `SELECT bioguide_id, member_name, max(party) AS party, max(chamber) AS chamber, ${COUNTS}
             FROM congressional_trades WHERE ${window}
            GROUP BY bioguide_id, member_name ORDER BY trades DESC, member_name LIMIT $2`,
          [from, limit],
        ),
        context.db.sql.query<TickerActivity>(
          `SELECT ticker, ${COUNTS}, count(DISTINCT coalesce(bioguide_id, member_name))::int AS members
             FROM congressional_trades WHERE ${window} AND ticker IS NOT NULL
            GROUP BY ticker ORDER BY trades DESC, ticker LIMIT $2`,
          [from, limit],
        ),
        context.db.prisma.congressionalTrade.count({ where: { ...CURRENT_TRADES, tradeDate: { gte: from } } }),
      ]);
      return { days, from, totalTrades, topMembers, topTickers };
    },
  }),
}));
