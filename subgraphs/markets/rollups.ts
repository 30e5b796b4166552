import type { Database } from '../platform/database.ts';

/**
 * The market rollups (materialized views of migration market_rollups) that the aggregate routes read. Whatever
 * writes signals or congressional trades calls refreshMarketRollups afterwards: the seeder and every import run
 * do (docs/api.md, "Rollups and freshness").
 */
export const MARKET_ROLLUPS = [
  'market_signal_dates',
  'market_trade_days',
  'market_member_days',
  'market_ticker_members',
  'market_disclosure_days',
  'market_purchase_totals',
  'market_signal_totals',
  'market_member_trades',
] as const;

/** Recomputes every rollup; readers keep the previous contents until each one is done (CONCURRENTLY). */
export async function refreshMarketRollups(db: Database): Promise<void> {
  await db.sql.query('SELECT markets_refresh_rollups()');
}

/**
 * SQL for a ticker's latest row of a running-totals view (market_signal_totals, market_purchase_totals) whose day
 * meets `dayCondition` (`< $1::date`): one index probe. A window's count is the row at its end minus the row
 * before its start. Each argument is an SQL expression (a column of the caller's row, a parameter).
 */
export function latestRunningTotal(
  view: 'market_signal_totals' | 'market_purchase_totals',
  columns: string,
  ticker: string,
  dayCondition: string,
): string {
  const day = view === 'market_signal_totals' ? 'day' : 'trade_date';
  return `(SELECT ${columns} FROM ${view} r
      WHERE r.ticker = ${ticker} AND r.${day} ${dayCondition} ORDER BY r.${day} DESC LIMIT 1)`;
}

/**
 * SQL for one ticker's signals, bullish and neutral on the whole days from `from` up to (not including) `until`,
 * from the running totals (market_signal_totals, migration convergence_running_totals): the last row before
 * `until` minus the last row before `from`, two index probes whatever the span. `until` must not be before `from`.
 * Each argument is an SQL expression (a column of the caller's row, a parameter).
 */
export function signalCountsBetween(ticker: string, from: string, until: string): string {
  const lastBefore = (day: string) =>
    latestRunningTotal('market_signal_totals', 'r.signals, r.bullish, r.neutral', ticker, `< ${day}`);
  return `(SELECT coalesce(upto.signals, 0) - coalesce(before.signals, 0) AS signals,
          coalesce(upto.bullish, 0) - coalesce(before.bullish, 0) AS bullish,
          coalesce(upto.neutral, 0) - coalesce(before.neutral, 0) AS neutral
     FROM (SELECT) AS one
     LEFT JOIN LATERAL ${lastBefore(until)} AS upto ON true
     LEFT JOIN LATERAL ${lastBefore(from)} AS before ON true)`;
}
