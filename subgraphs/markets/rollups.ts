import type { Database } from '../platform/database.ts';

/**
 * The market rollups (materialized views of migration market_rollups) that the aggregate routes read. Whatever
 * writes signals or congressional trades calls refreshMarketRollups afterwards: the seeder and every import run
 * do (docs/api.md, "Rollups and freshness").
 */
export const MARKET_ROLLUPS = [
  'market_signal_days',
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
