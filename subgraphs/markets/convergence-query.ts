import type { CongressionalTrade as TradeRow, Signal as SignalRow } from '../../prisma/generated/client/client.ts';
import type { Database } from '../platform/database.ts';
import { utcDate } from '../platform/dates.ts';
import { CONVERGENCE_WEIGHTS } from './convergence-score.ts';
import type { ConvergenceLead } from './convergence-score.ts';

/** Purchases and signals listed as each lead's evidence: the newest of each (the counts cover them all). */
export const CONVERGENCE_EVIDENCE_LIMIT = 10;

export interface ConvergenceWindow {
  /** First trade date of a counted purchase (midnight UTC). */
  purchasesFrom: Date;
  /** First instant of a counted signal. */
  signalsFrom: Date;
  limit: number;
}

interface LeadRow {
  ticker: string;
  buys: number;
  members: number;
  names: string[];
  signals: number;
  bullish: number;
  members_points: number;
  purchase_points: number;
  signal_points: number;
  first_date: string;
  last_date: string;
  company_name: string;
  last_signal_at: string;
  purchase_ids: string[];
  signal_ids: string[];
}

const w = CONVERGENCE_WEIGHTS;
const signalPoints = `(${Object.entries(w.perSignal)
  .map(([sentiment, points]) => `c.${sentiment.toLowerCase()} * ${points}`)
  .join(' + ')})`;

/**
 * The scoring rule of convergence-score.ts in SQL, over the market rollups (migration market_rollups): purchases
 * per ticker and day, each member's latest purchase of each ticker, signals per ticker and day. The first,
 * partial day of the signal window is counted from the signals themselves. Only the best `limit` tickers
 * leave the database, with the ids of their newest evidence.
 */
const SIGNALS_FROM = `($2::timestamptz AT TIME ZONE 'UTC')`;

const LEADS_SQL = `
  WITH buys AS (
    SELECT d.ticker, sum(d.purchases)::int AS buys, min(d.trade_date) AS first_date, max(d.trade_date) AS last_date
      FROM market_trade_days d
     WHERE d.trade_date >= $1::date AND d.purchases > 0 AND d.ticker <> ''
     GROUP BY d.ticker),
  buyers AS (
    SELECT m.ticker, count(*)::int AS members FROM market_ticker_members m WHERE m.last_purchase_date >= $1::date GROUP BY m.ticker),
  signal_counts AS (
    SELECT s.ticker, sum(s.signals)::int AS signals, sum(s.bullish)::int AS bullish, sum(s.neutral)::int AS neutral,
           sum(s.signals - s.bullish - s.neutral)::int AS bearish
      FROM (SELECT d.ticker, d.signals, d.bullish, d.neutral FROM market_signal_days d
             WHERE d.day > ${SIGNALS_FROM}::date AND d.ticker IN (SELECT ticker FROM buys)
            UNION ALL
            -- Per ticker, so the (ticker, created_at, ..., sentiment) index answers it without the table.
            SELECT p.ticker, 1, (x.sentiment = 'BULLISH')::int, (x.sentiment = 'NEUTRAL')::int
              FROM buys p JOIN signals x ON x.ticker = p.ticker
             WHERE x.created_at >= ${SIGNALS_FROM} AND x.created_at < ${SIGNALS_FROM}::date + 1) s
     GROUP BY s.ticker),
  scored AS (
    SELECT t.*, least(t.members * ${w.perMember}, ${w.maxMembers}) AS members_points,
           least(t.buys * ${w.perPurchase}, ${w.maxPurchases}) AS purchase_points,
           least(t.points, ${w.maxSignals}) AS signal_points
      FROM (SELECT p.*, m.members, c.signals, c.bullish, ${signalPoints} AS points
              FROM buys p JOIN buyers m USING (ticker) JOIN signal_counts c USING (ticker)) t),
  top AS (
    SELECT *, members_points + purchase_points + signal_points AS score FROM scored
     ORDER BY members_points + purchase_points + signal_points DESC, buys DESC, signals DESC, ticker COLLATE "C"
     LIMIT $3)
  SELECT top.ticker, top.buys, top.members, top.signals, top.bullish, top.members_points, top.purchase_points,
         top.signal_points, top.first_date::text, top.last_date::text, latest.company_name,
         to_char(latest.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_signal_at,
         ARRAY(SELECT m.purchase_name FROM market_ticker_members m
                WHERE m.ticker = top.ticker AND m.last_purchase_date >= $1::date) AS names,
         ARRAY(SELECT t.id::text FROM congressional_trades t
                WHERE t.ticker = top.ticker AND t.superseded_by_id IS NULL AND t.trade_type = 'purchase'
                  AND t.trade_date >= $1::date
                ORDER BY t.trade_date DESC, t.id LIMIT ${CONVERGENCE_EVIDENCE_LIMIT}) AS purchase_ids,
         ARRAY(SELECT x.id::text FROM signals x WHERE x.ticker = top.ticker AND x.created_at >= ${SIGNALS_FROM}
                ORDER BY x.created_at DESC, x.id LIMIT ${CONVERGENCE_EVIDENCE_LIMIT}) AS signal_ids
    FROM top
    CROSS JOIN LATERAL (SELECT x.company_name, x.created_at FROM signals x WHERE x.ticker = top.ticker AND x.created_at >= ${SIGNALS_FROM}
                         ORDER BY x.created_at DESC, x.id LIMIT 1) latest
   ORDER BY top.score DESC, top.buys DESC, top.signals DESC, top.ticker COLLATE "C"`;

export type Lead = ConvergenceLead<TradeRow, SignalRow>;

/** The best `limit` convergence leads, scored by the database; only they and their evidence are read. */
export async function convergenceLeadsFromDatabase(db: Database, window: ConvergenceWindow): Promise<Lead[]> {
  const rows = await db.sql.query<LeadRow>(LEADS_SQL, [
    window.purchasesFrom.toISOString().slice(0, 10),
    window.signalsFrom.toISOString(),
    window.limit,
  ]);
  const [purchases, signals] = await Promise.all([
    db.prisma.congressionalTrade.findMany({ where: { id: { in: rows.flatMap((row) => row.purchase_ids) } } }),
    db.prisma.signal.findMany({ where: { id: { in: rows.flatMap((row) => row.signal_ids) } } }),
  ]);
  const tradeById = new Map(purchases.map((trade) => [trade.id, trade]));
  const signalById = new Map(signals.map((signal) => [signal.id, signal]));
  return rows.map((row) => ({
    ticker: row.ticker,
    companyName: row.company_name,
    congressBuys: row.buys,
    totalSignals: row.signals,
    bullishSignals: row.bullish,
    congressMembers: [...new Set(row.names)].sort(),
    score: row.members_points + row.purchase_points + row.signal_points,
    scoreBreakdown: { members: row.members_points, purchases: row.purchase_points, signals: row.signal_points },
    firstPurchaseDate: utcDate(row.first_date),
    lastPurchaseDate: utcDate(row.last_date),
    lastSignalAt: new Date(row.last_signal_at),
    purchases: row.purchase_ids.map((id) => tradeById.get(id)!).filter(Boolean),
    signals: row.signal_ids.map((id) => signalById.get(id)!).filter(Boolean),
  }));
}
