import type { RequestContext } from '../../platform/context.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { pageArgument, pageInfoSource, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import { exactTotal } from '../../platform/totals.ts';
import { signalHistoryStart } from '../signal-history.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { PAGE_DESCRIPTIONS } from '../../platform/page-object.ts';
import { PageInfo, builder } from '../builder.ts';
import { renderBriefingHtml } from '../briefing-html.ts';
import type { BriefingContent } from '../briefing-html.ts';
import { formatDate, isoDate, utcDate } from '../../platform/dates.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { YieldCurve, spread2to10, yieldCurveOn } from './macro.ts';
import type { YieldCurveSource } from './macro.ts';
import { Signal } from './signal.ts';

const briefingArguments = defineArguments({
  date: argument('String', isoDate, { required: true, description: 'YYYY-MM-DD' }),
});

/**
 * A daily briefing: the signals created that day (UTC, within the plan's history), the congressional trades
 * disclosed that day, and the yield curve of that day (or the latest before it). A day has a briefing when it
 * has at least one such signal or trade, or a stored briefing (headline and summary written by the importers).
 */

const BRIEFING_PAGING = { defaultPerPage: 30, maxPerPage: 200, sizeArgument: 'limit' };

interface BriefingDay {
  date: string;
  signals: number;
  trades: number;
  headline: string | null;
}

/**
 * The days that have a briefing, newest first, for one page and the total: signals per day from the market
 * rollups (the first, partial day of the plan's history from the signals themselves), disclosures per day, and
 * stored briefings of days wholly inside the plan's history (see `storedBriefingVisible`).
 */
const SINCE = `($1::timestamptz AT TIME ZONE 'UTC')`;
const DAYS_SQL = `
  WITH days AS (
    SELECT day, signals, 0 AS trades FROM market_signal_dates WHERE day > ${SINCE}::date
    UNION ALL
    SELECT created_at::date, count(*), 0 FROM signals WHERE created_at >= ${SINCE} AND created_at < ${SINCE}::date + 1 GROUP BY 1
    UNION ALL
    SELECT day, 0, trades FROM market_disclosure_days WHERE day < 'infinity'
    UNION ALL
    SELECT date, 0, 0 FROM briefings WHERE date >= ${SINCE}
  )`;

function generatedHeadline(signals: number, trades: number): string {
  return `${signals} signal${signals === 1 ? '' : 's'} and ${trades} congressional trade${trades === 1 ? '' : 's'}`;
}

const BriefingSummary = builder.objectRef<BriefingDay>('BriefingSummary').implement({
  description: 'One day that has a briefing, as listed: its headline and counts.',
  fields: (t) => ({
    date: t.field({ type: 'Date', description: 'The day (UTC).', resolve: (day) => utcDate(day.date) }),
    headline: t.string({
      description: 'The stored headline, or one counting the day’s signals and trades.',
      resolve: (day) => day.headline ?? generatedHeadline(day.signals, day.trades),
    }),
    signalsCount: t.exposeInt('signals', { description: 'Signals created that day, within the plan’s history.' }),
    tradesCount: t.exposeInt('trades', { description: 'Congressional trades disclosed that day.' }),
    url: t.string({ description: 'Path of the HTML briefing.', resolve: (day) => `/api/briefings/${day.date}` }),
  }),
});

const BriefingPage = builder
  .objectRef<{ days: BriefingDay[]; pageInfo: ReturnType<typeof pageInfoSource> }>('BriefingPage')
  .implement({
    description: PAGE_DESCRIPTIONS.page,
    fields: (t) => ({
      nodes: t.field({ type: [BriefingSummary], description: PAGE_DESCRIPTIONS.nodes, resolve: (page) => page.days }),
      pageInfo: t.field({ type: PageInfo, description: PAGE_DESCRIPTIONS.pageInfo, resolve: (page) => page.pageInfo }),
    }),
  });

type BriefingSource = BriefingContent & { curve: YieldCurveSource | null };

/**
 * A stored headline and summary are written from all of the day's signals (the top one's summary quoted), so
 * they are shown only for a day wholly inside the plan's signal history; before it, the briefing is generated
 * from what the plan sees (the day's trades, the curve), and a day with nothing visible has none.
 */
function storedBriefingVisible(date: Date, planStart: Date | undefined): boolean {
  return planStart === undefined || date >= planStart;
}

async function briefingOn(context: RequestContext, date: Date): Promise<BriefingSource> {
  const next = new Date(date.getTime() + 86_400_000);
  const planStart = signalHistoryStart(context.viewer?.plan);
  const [signals, trades, stored, curve] = await Promise.all([
    context.db.prisma.signal.findMany({
      where: { createdAt: { gte: planStart && planStart > date ? planStart : date, lt: next } },
      orderBy: [{ materialityScore: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
    }),
    context.db.prisma.congressionalTrade.findMany({
      where: { supersededById: null, disclosureDate: date },
      orderBy: [{ tradeDate: 'desc' }, { memberName: 'asc' }, { id: 'asc' }],
    }),
    storedBriefingVisible(date, planStart) ? context.db.prisma.briefing.findUnique({ where: { date } }) : null,
    yieldCurveOn(context, date),
  ]);
  if (signals.length === 0 && trades.length === 0 && !stored)
    throw new NotFoundError(`Briefing for ${formatDate(date)}`);
  return {
    date,
    headline: stored?.headline ?? `Market briefing: ${generatedHeadline(signals.length, trades.length)}`,
    summary:
      stored?.summary ??
      `${signals.filter((signal) => signal.sentiment === 'BULLISH').length} bullish and ${
        signals.filter((signal) => signal.sentiment === 'BEARISH').length
      } bearish signals; ${trades.filter((trade) => trade.tradeType === 'purchase').length} congressional purchases disclosed.`,
    signals,
    trades,
    curve,
    yieldCurve: curve && {
      date: curve.date,
      y2: curve.points.find((point) => point.tenorMonths === 24)?.ratePct ?? null,
      y10: curve.points.find((point) => point.tenorMonths === 120)?.ratePct ?? null,
      y30: curve.points.find((point) => point.tenorMonths === 360)?.ratePct ?? null,
      spread: spread2to10(curve),
      inverted: (spread2to10(curve) ?? 0) < 0,
    },
  };
}

const Briefing = builder.objectRef<BriefingSource>('Briefing').implement({
  description: 'A daily briefing: the day’s signals and disclosed congressional trades, and its yield curve.',
  fields: (t) => ({
    date: t.field({ type: 'Date', description: 'The day (UTC).', resolve: (briefing) => briefing.date }),
    headline: t.exposeString('headline', { description: 'The stored headline, or one counting signals and trades.' }),
    summary: t.exposeString('summary', {
      description: 'The stored summary, or one counting sentiments and purchases.',
    }),
    signals: t.field({
      type: [Signal],
      description: 'Signals created that day within the plan’s history, most material first.',
      resolve: (briefing) => briefing.signals,
    }),
    congressionalTrades: t.field({
      type: [CongressionalTrade],
      description: 'Trades in force disclosed that day, newest trade first.',
      resolve: (briefing) => briefing.trades,
    }),
    yieldCurve: t.field({
      type: YieldCurve,
      nullable: true,
      description: 'The Treasury curve of that day or the latest before it; null without one.',
      resolve: (briefing) => briefing.curve,
    }),
    html: t.string({ description: 'The briefing as a complete HTML page.', resolve: renderBriefingHtml }),
  }),
});

builder.queryFields((t) => ({
  briefings: t.field({
    type: BriefingPage,
    description: 'The days that have a briefing, newest first.',
    args: { page: pageArgument(t.arg), limit: pageSizeArgument(t.arg, BRIEFING_PAGING) },
    resolve: async (_root, args, context) => {
      const paging = resolvePaging({ page: args.page, size: args.limit }, BRIEFING_PAGING);
      const since = (signalHistoryStart(context.viewer?.plan) ?? new Date(0)).toISOString();
      const days = await context.db.sql.query<BriefingDay>(
        `${DAYS_SQL}
         SELECT d.day::text AS date, sum(d.signals)::int AS signals, sum(d.trades)::int AS trades, b.headline
           FROM days AS d LEFT JOIN briefings AS b ON b.date = d.day AND b.date >= ${SINCE}
          GROUP BY d.day, b.headline ORDER BY d.day DESC OFFSET $2 LIMIT $3`,
        [since, paging.skip, paging.perPage],
      );
      // Days, not rows: a few thousand at most, so always exact.
      const count = async () =>
        exactTotal(
          (
            await context.db.sql.query<{ total: number }>(
              `${DAYS_SQL} SELECT count(DISTINCT day)::int AS total FROM days`,
              [since],
            )
          )[0]!.total,
        );
      return { days, pageInfo: pageInfoSource(paging, count) };
    },
  }),
  briefing: t.field({
    type: Briefing,
    description: 'The briefing of one day; a day without one is not_found.',
    args: briefingArguments.graphql(t.arg),
    resolve: (_root, args, context) => briefingOn(context, briefingArguments.parse(args).date),
  }),
}));
