import { builder } from '../builder.ts';
import { LAST_INGESTED_SQL } from '../sources/source-status.ts';

interface PublicStatsSource {
  congressional_trades: number;
  signals_7d: number;
  members_tracked: number;
  tickers_tracked: number;
  last_updated: Date | null;
}

const PublicStats = builder.objectRef<PublicStatsSource>('PublicStats').implement({
  description:
    'Platform statistics shown without a key, from the live database (trade and signal counts through the market rollups).',
  fields: (t) => ({
    congressionalTrades: t.exposeInt('congressional_trades', {
      description: 'Trades in force (amendments replace originals).',
    }),
    signals7d: t.exposeInt('signals_7d', { description: 'Signals created in the last 7 days.' }),
    membersTracked: t.exposeInt('members_tracked', {
      description: 'Members in office, and former members with a trade.',
    }),
    tickersTracked: t.exposeInt('tickers_tracked', {
      description: 'Distinct tickers with a signal or a congressional trade.',
    }),
    lastUpdated: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'When the data was last refreshed: the newest successful ingestion run (`sources`), else (data loaded by ' +
        'hand or generated) the newest signal or disclosure; null for an empty database.',
      resolve: (stats) => stats.last_updated,
    }),
  }),
});

const WEEK_AGO = `(now() AT TIME ZONE 'UTC' - interval '7 days')`;

/**
 * The distinct tickers of signals and of trades, one index probe per ticker (a loose index scan) instead of a
 * pass over every row: a few hundred tickers among millions of records.
 */
const DISTINCT_TICKERS = `
  WITH RECURSIVE signal_tickers AS (
    (SELECT ticker FROM signals ORDER BY ticker LIMIT 1)
    UNION ALL
    SELECT (SELECT x.ticker FROM signals x WHERE x.ticker > s.ticker ORDER BY x.ticker LIMIT 1) FROM signal_tickers s WHERE s.ticker IS NOT NULL
  ), trade_tickers AS (
    (SELECT ticker FROM congressional_trades WHERE ticker IS NOT NULL ORDER BY ticker LIMIT 1)
    UNION ALL
    SELECT (SELECT x.ticker FROM congressional_trades x WHERE x.ticker > s.ticker ORDER BY x.ticker LIMIT 1)
      FROM trade_tickers s WHERE s.ticker IS NOT NULL
  )`;

builder.queryFields((t) => ({
  publicStats: t.field({
    type: PublicStats,
    description: 'Platform statistics; public, like `sources`.',
    resolve: async (_root, _args, context) => {
      const [row] = await context.db.sql.query<
        Omit<PublicStatsSource, 'last_updated'> & { last_updated: string | null }
      >(
        `${DISTINCT_TICKERS}
         SELECT
           (SELECT coalesce(sum(trades), 0)::int FROM market_disclosure_days) AS congressional_trades,
           (SELECT coalesce(sum(signals), 0)::int FROM market_signal_dates WHERE day > ${WEEK_AGO}::date)
             + (SELECT count(*)::int FROM signals WHERE created_at >= ${WEEK_AGO} AND created_at < ${WEEK_AGO}::date + 1) AS signals_7d,
           (SELECT count(*)::int FROM members m WHERE m.in_office OR EXISTS (
              SELECT 1 FROM congressional_trades c WHERE c.bioguide_id = m.bioguide_id)) AS members_tracked,
           (SELECT count(*)::int FROM (SELECT ticker FROM signal_tickers UNION SELECT ticker FROM trade_tickers) AS t
             WHERE ticker IS NOT NULL) AS tickers_tracked,
           to_char(coalesce(${LAST_INGESTED_SQL},
                            GREATEST((SELECT max(created_at) FROM signals),
                                     (SELECT max(day)::timestamp FROM market_disclosure_days WHERE day < 'infinity'))),
                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_updated`,
      );
      return { ...row!, last_updated: row!.last_updated ? new Date(row!.last_updated) : null };
    },
  }),
}));
