import { builder } from '../builder.ts';

interface PublicStatsSource {
  congressional_trades: number;
  signals_7d: number;
  members_tracked: number;
  tickers_tracked: number;
  last_updated: Date | null;
}

const PublicStats = builder.objectRef<PublicStatsSource>('PublicStats').implement({
  description: 'Platform statistics shown without a key; always read from the live database.',
  fields: (t) => ({
    congressionalTrades: t.exposeInt('congressional_trades', { description: 'Trades in force (amendments replace originals).' }),
    signals7d: t.exposeInt('signals_7d', { description: 'Signals created in the last 7 days.' }),
    membersTracked: t.exposeInt('members_tracked'),
    tickersTracked: t.exposeInt('tickers_tracked', { description: 'Distinct tickers with a signal or a congressional trade.' }),
    lastUpdated: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The newest signal or disclosure; null for an empty database.',
      resolve: (stats) => stats.last_updated,
    }),
  }),
});

builder.queryFields((t) => ({
  publicStats: t.field({
    type: PublicStats,
    resolve: async (_root, _args, context) => {
      const [row] = await context.db.sql.query<Omit<PublicStatsSource, 'last_updated'> & { last_updated: string | null }>(
        `SELECT
           (SELECT count(*)::int FROM congressional_trades WHERE superseded_by_id IS NULL) AS congressional_trades,
           (SELECT count(*)::int FROM signals WHERE created_at >= now() AT TIME ZONE 'UTC' - interval '7 days') AS signals_7d,
           (SELECT count(*)::int FROM members) AS members_tracked,
           (SELECT count(*)::int FROM (SELECT ticker FROM signals UNION SELECT ticker FROM congressional_trades WHERE ticker IS NOT NULL) AS t) AS tickers_tracked,
           to_char(GREATEST((SELECT max(created_at) FROM signals), (SELECT max(disclosure_date)::timestamp FROM congressional_trades)),
                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_updated`,
      );
      return { ...row!, last_updated: row!.last_updated ? new Date(row!.last_updated) : null };
    },
  }),
}));
