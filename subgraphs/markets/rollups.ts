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
 * SQL for one ticker's signals, bullish and neutral on the whole days from `from` up to (not including) `until`,
 * from the running totals (market_signal_totals, migration convergence_running_totals): the last row before
 * `until` minus the last row before `from`, two index probes whatever the span. `until` must not be before `from`.
 * Each argument is an SQL expression (a column of the caller's row, a parameter).
 */
export function signalCountsBetween(ticker: string, from: string, until: string): string {
  const lastBefore = (day: string) => `(SELECT r.signals, r.bullish, r.neutral FROM market_signal_totals r
      WHERE r.ticker = ${ticker} AND r.day < ${day} ORDER BY r.day DESC LIMIT 1)`;
  return `(SELECT coalesce(upto.signals, 0) - coalesce(before.signals, 0) AS signals,
          coalesce(upto.bullish, 0) - coalesce(before.bullish, 0) AS bullish,
          coalesce(upto.neutral, 0) - coalesce(before.neutral, 0) AS neutral
     FROM (SELECT) AS one
     LEFT JOIN LATERAL ${lastBefore(until)} AS upto ON true
     LEFT JOIN LATERAL ${lastBefore(from)} AS before ON true)`;
}
