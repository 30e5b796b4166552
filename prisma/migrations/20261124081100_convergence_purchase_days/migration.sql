-- Purchases in force per ticker and trade date with their dollars (hand-written, like market_rollups): convergence
-- leads of a window that runs through the newest purchase read these and each member's latest purchase
-- (market_ticker_members) instead of every purchase of the window (1M records per vertical: 400 × 63 rows
-- instead of 72k purchases). `amount2` is twice the bucket midpoints, low + high summed as whole dollars, exact;
-- an open bucket counts its floor, a purchase without bounds $1,001 (subgraphs/markets/convergence-score.ts).
CREATE MATERIALIZED VIEW "market_purchase_days" AS
  SELECT "ticker", "trade_date", count(*)::int AS "purchases",
         sum(coalesce("amount_low", 1001) + coalesce("amount_high", "amount_low", 1001))::float8 AS "amount2"
    FROM "congressional_trades"
   WHERE "superseded_by_id" IS NULL AND "trade_type" = 'purchase' AND "ticker" IS NOT NULL AND "ticker" <> ''
   GROUP BY 1, 2;
CREATE UNIQUE INDEX "market_purchase_days_trade_date_ticker_key" ON "market_purchase_days" ("trade_date", "ticker") INCLUDE ("purchases", "amount2");

CREATE OR REPLACE FUNCTION markets_refresh_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_dates";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_trade_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_member_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_ticker_members";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_disclosure_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_purchase_days";
END $$;
