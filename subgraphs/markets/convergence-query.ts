import type { CongressionalTrade as TradeRow, Signal as SignalRow } from '../../prisma/generated/client/client.ts';
import type { Database } from '../platform/database.ts';
import { utcDate } from '../platform/dates.ts';
import { CONVERGENCE_SCORE, compareLeads, convergenceScore } from './convergence-score.ts';
import { latestRunningTotal, signalCountsBetween } from './rollups.ts';
import type { ConvergenceLead, LeadEvidence } from './convergence-score.ts';

/** Purchases and signals listed as each lead's evidence: the newest of each (the counts cover them all). */
export const CONVERGENCE_EVIDENCE_LIMIT = 10;

export interface ConvergenceWindow {
  /** First and last trade date of a counted purchase (midnight UTC, both inclusive). */
  from: Date;
  to: Date;
  /** First instant of a counted signal: `from`, or the start of the caller's signal history when later. */
  signalsFrom: Date;
  /** Midnight after the last day of counted signals; null: through the newest signal. */
  signalsUntil: Date | null;
  limit: number;
  /** Load each lead's evidence rows (purchases, signals); false leaves both lists empty. Default true. */
  evidence?: boolean;
}

interface EvidenceRow {
  ticker: string;
  buys: number;
  members: number;
  amount: number;
  signals: number;
  bullish: number;
  neutral: number;
  first_date: string;
  last_date: string;
}

interface DetailRow {
  ticker: string;
  company_name: string;
  last_signal_at: string;
  names: string[];
  purchase_ids: string[];
  signal_ids: string[];
}

/** The newest trade date in force (amended trades left out), or null without trades. */
export async function newestTradeDate(db: Database): Promise<Date | null> {
  const [row] = await db.sql.query<{ newest: string | null }>(
    'SELECT max(trade_date)::text AS newest FROM congressional_trades WHERE superseded_by_id IS NULL',
  );
  return row?.newest ? utcDate(row.newest) : null;
}

/** The day of the newest signal (created_at is stored in UTC), or null without signals (the end of its index). */
export async function newestSignalDate(db: Database): Promise<Date | null> {
  const [row] = await db.sql.query<{ newest: string | null }>(
    `SELECT max(created_at)::date::text AS newest FROM signals`,
  );
  return row?.newest ? utcDate(row.newest) : null;
}

// $1 from, $2 to (dates) of the purchases; $3 the first instant of a signal, $4 the day signals end before (or null).
const SIGNALS_FROM = `($3::timestamptz AT TIME ZONE 'UTC')`;
const SIGNALS_IN_WINDOW = `x.created_at >= ${SIGNALS_FROM} AND ($4::date IS NULL OR x.created_at < $4::date)`;
// The first day the rollups count whole: the day of $3 when it is midnight (a window's own start), else the next.
const FIRST_WHOLE_DAY = `(${SIGNALS_FROM} + interval '1 day' - interval '1 microsecond')::date`;
const PURCHASES = `t.superseded_by_id IS NULL AND t.trade_type = 'purchase' AND t.trade_date BETWEEN $1::date AND $2::date`;
// Twice the midpoints (low + high), summed exactly as doubles of whole dollars, halved per ticker.
const AMOUNT_SUM = `sum(coalesce(t.amount_low, ${CONVERGENCE_SCORE.unknownAmount}) + coalesce(t.amount_high, t.amount_low, ${CONVERGENCE_SCORE.unknownAmount}))::float8`;

/**
 * Per ticker bought in the window, what the score is computed from. Whole days of signals come from the running
 * totals (the window's end is never before its first whole day: a window ending before its signals begin is
 * answered empty before any statement), a first, partial day (a plan's history starts mid-day) from the signals
 * themselves. A ticker without a signal in the window is no lead.
 */
const SIGNAL_COUNTS = `
  signal_counts AS (
    SELECT b.ticker, (whole.signals + partial.signals)::int AS signals,
           (whole.bullish + partial.bullish)::int AS bullish, (whole.neutral + partial.neutral)::int AS neutral
      FROM buys b
      CROSS JOIN LATERAL ${signalCountsBetween('b.ticker', FIRST_WHOLE_DAY, `coalesce($4::date, 'infinity')`)} AS whole
      -- Per ticker, so the (ticker, created_at, ..., sentiment) index answers it without the table; least() skips
      -- a null $4.
      CROSS JOIN LATERAL (
        SELECT count(*) AS signals, count(*) FILTER (WHERE x.sentiment = 'BULLISH') AS bullish,
               count(*) FILTER (WHERE x.sentiment = 'NEUTRAL') AS neutral
          FROM signals x
         WHERE x.ticker = b.ticker AND x.created_at >= ${SIGNALS_FROM}
           AND x.created_at < least(${FIRST_WHOLE_DAY}, $4::date)) AS partial)
  SELECT b.*, c.signals, c.bullish, c.neutral FROM buys b JOIN signal_counts c USING (ticker) WHERE c.signals > 0`;

/**
 * A window through the newest purchase: the tickers of the members whose latest purchase of them is on or after
 * `from` (market_ticker_members, exact when none is later than `to`), and per ticker its purchases and dollars
 * between the running totals (market_purchase_totals) of the window's last day and of the day before its first.
 */
const EVIDENCE_THROUGH_NEWEST_SQL = `
  WITH members AS (
    SELECT ticker, count(*)::int AS members FROM market_ticker_members
     WHERE last_purchase_date >= $1::date GROUP BY ticker),
  buys AS (
    SELECT m.ticker, (upto.purchases - coalesce(before.purchases, 0))::int AS buys, m.members,
           (upto.amount2 - coalesce(before.amount2, 0)) / 2 AS amount,
           first.trade_date::text AS first_date, upto.trade_date::text AS last_date
      FROM members m
      CROSS JOIN LATERAL ${latestRunningTotal('market_purchase_totals', 'r.purchases, r.amount2, r.trade_date', 'm.ticker', '<= $2::date')} AS upto
      LEFT JOIN LATERAL ${latestRunningTotal('market_purchase_totals', 'r.purchases, r.amount2', 'm.ticker', '< $1::date')} AS before ON true
      CROSS JOIN LATERAL (SELECT t.trade_date FROM market_purchase_totals t
                           WHERE t.ticker = m.ticker AND t.trade_date >= $1::date
                           ORDER BY t.trade_date LIMIT 1) AS first
     WHERE upto.purchases > coalesce(before.purchases, 0)),
  ${SIGNAL_COUNTS}`;

/**
 * A window that ends before the newest purchase (`as_of`): a member's latest purchase may fall after it, so the
 * window's purchases are read from the partial index of migration convergence_purchases, index-only.
 */
const EVIDENCE_OF_PURCHASES_SQL = `
  WITH bought AS (
    -- Per ticker and member first: hash aggregates, where count(DISTINCT member) would sort every purchase.
    SELECT t.ticker, coalesce(t.bioguide_id, 'name:' || t.member_name) AS member, count(*) AS buys,
           ${AMOUNT_SUM} AS amount, min(t.trade_date) AS first_date, max(t.trade_date) AS last_date
      FROM congressional_trades t
     WHERE ${PURCHASES} AND t.ticker <> ''
     GROUP BY 1, 2),
  buys AS (
    SELECT ticker, sum(buys)::int AS buys, count(*)::int AS members, sum(amount) / 2 AS amount,
           min(first_date)::text AS first_date, max(last_date)::text AS last_date
      FROM bought GROUP BY ticker),
  ${SIGNAL_COUNTS}`;

/** The newest purchase date in force, from the end of the partial purchases index. */
async function newestPurchaseDate(db: Database): Promise<Date | null> {
  const [row] = await db.sql.query<{ newest: string | null }>(
    `SELECT max(trade_date)::text AS newest FROM congressional_trades
      WHERE superseded_by_id IS NULL AND trade_type = 'purchase'`,
  );
  return row?.newest ? utcDate(row.newest) : null;
}

/**
 * The buying members' names per ticker, each as in their newest purchase of the window. Through the newest purchase
 * that is each member's latest purchase (market_ticker_members, which the member count reads too); a window that
 * ends earlier reads its purchases of the ticker.
 */
const NAMES_THROUGH_NEWEST_SQL = `
  ARRAY(SELECT m.purchase_name FROM market_ticker_members m
         WHERE m.ticker = k.ticker AND m.last_purchase_date >= $1::date)`;
const NAMES_OF_PURCHASES_SQL = `
  ARRAY(SELECT n.member_name FROM (
          SELECT DISTINCT ON (coalesce(t.bioguide_id, 'name:' || t.member_name)) t.member_name
            FROM congressional_trades t WHERE t.ticker = k.ticker AND ${PURCHASES}
           ORDER BY coalesce(t.bioguide_id, 'name:' || t.member_name), t.trade_date DESC, t.id) n)`;

/** Names and evidence of the chosen tickers ($5): only they leave the database with their rows. */
const detailSql = (names: string) => `
  SELECT k.ticker, latest.company_name,
         to_char(latest.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_signal_at,
         ${names} AS names,
         ARRAY(SELECT t.id::text FROM congressional_trades t WHERE t.ticker = k.ticker AND ${PURCHASES}
                ORDER BY t.trade_date DESC, t.id LIMIT ${CONVERGENCE_EVIDENCE_LIMIT}) AS purchase_ids,
         ARRAY(SELECT x.id::text FROM signals x
                WHERE x.ticker = k.ticker AND ${SIGNALS_IN_WINDOW}
                ORDER BY x.created_at DESC, x.id LIMIT ${CONVERGENCE_EVIDENCE_LIMIT}) AS signal_ids
    FROM unnest($5::text[]) AS k(ticker)
    CROSS JOIN LATERAL (SELECT x.company_name, x.created_at FROM signals x
                         WHERE x.ticker = k.ticker AND ${SIGNALS_IN_WINDOW}
                         ORDER BY x.created_at DESC, x.id LIMIT 1) latest`;
const DETAIL_THROUGH_NEWEST_SQL = detailSql(NAMES_THROUGH_NEWEST_SQL);
const DETAIL_OF_PURCHASES_SQL = detailSql(NAMES_OF_PURCHASES_SQL);

export type Lead = ConvergenceLead<TradeRow, SignalRow>;

/**
 * The best `limit` convergence leads of the window: the database counts per ticker, convergence-score.ts scores
 * and orders them (one formula), then only the chosen tickers' names and evidence are read.
 */
export async function convergenceLeadsFromDatabase(db: Database, window: ConvergenceWindow): Promise<Lead[]> {
  const bounds = [
    window.from.toISOString().slice(0, 10),
    window.to.toISOString().slice(0, 10),
    window.signalsFrom.toISOString(),
    window.signalsUntil?.toISOString().slice(0, 10) ?? null,
  ];
  // A plan history that starts after the window ends leaves no signal to count.
  if (window.signalsUntil && window.signalsFrom >= window.signalsUntil) return [];
  const newest = await newestPurchaseDate(db);
  const throughNewest = !newest || newest <= window.to;
  const rows = await db.sql.query<EvidenceRow>(
    throughNewest ? EVIDENCE_THROUGH_NEWEST_SQL : EVIDENCE_OF_PURCHASES_SQL,
    bounds,
  );
  const chosen = rows
    .map((row) => {
      const evidence: LeadEvidence = {
        buys: row.buys,
        members: row.members,
        purchaseAmount: Number(row.amount),
        signals: row.signals,
        bullish: row.bullish,
        neutral: row.neutral,
        bearish: row.signals - row.bullish - row.neutral,
      };
      return { row, evidence, ticker: row.ticker, ...convergenceScore(evidence) };
    })
    .sort(compareLeads)
    .slice(0, window.limit);
  if (chosen.length === 0) return [];
  const details = await db.sql.query<DetailRow>(throughNewest ? DETAIL_THROUGH_NEWEST_SQL : DETAIL_OF_PURCHASES_SQL, [
    ...bounds,
    chosen.map((lead) => lead.ticker),
  ]);
  const detailOf = new Map(details.map((detail) => [detail.ticker, detail]));
  // The evidence is most of an answer (20 leads × 20 rows with their summaries, 145 kB): read only when asked.
  const withEvidence = window.evidence ?? true;
  const [purchases, signals] = withEvidence
    ? await Promise.all([
        db.prisma.congressionalTrade.findMany({ where: { id: { in: details.flatMap((row) => row.purchase_ids) } } }),
        db.prisma.signal.findMany({ where: { id: { in: details.flatMap((row) => row.signal_ids) } } }),
      ])
    : [[], []];
  const tradeById = new Map(purchases.map((trade) => [trade.id, trade]));
  const signalById = new Map(signals.map((signal) => [signal.id, signal]));
  return chosen.map(({ row, evidence, score, parts }) => {
    const detail = detailOf.get(row.ticker)!;
    return {
      ticker: row.ticker,
      companyName: detail.company_name,
      congressBuys: row.buys,
      totalSignals: row.signals,
      bullishSignals: evidence.bullish,
      bearishSignals: evidence.bearish,
      purchaseAmount: evidence.purchaseAmount,
      congressMembers: [...new Set(detail.names)].sort(),
      score,
      scoreBreakdown: parts,
      firstPurchaseDate: utcDate(row.first_date),
      lastPurchaseDate: utcDate(row.last_date),
      lastSignalAt: new Date(detail.last_signal_at),
      purchases: detail.purchase_ids.map((id) => tradeById.get(id)!).filter(Boolean),
      signals: detail.signal_ids.map((id) => signalById.get(id)!).filter(Boolean),
    };
  });
}
