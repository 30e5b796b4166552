-- Signals per UTC day over all tickers (hand-written, like market_rollups): the briefing list and the public
-- statistics read a few hundred rows instead of every (ticker, day) of market_signal_days.
CREATE MATERIALIZED VIEW "market_signal_dates" AS
  SELECT "created_at"::date AS "day", count(*)::int AS "signals" FROM "signals" GROUP BY 1;
CREATE UNIQUE INDEX "market_signal_dates_day_key" ON "market_signal_dates" ("day");

CREATE OR REPLACE FUNCTION markets_refresh_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_dates";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_trade_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_member_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_ticker_members";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_disclosure_days";
END $$;
