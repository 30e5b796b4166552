-- Trades in force per member (hand-written, like market_rollups): member search ranks its matches by it and
-- returns it as `trades_count`. Counting a member's trades per request read every one of them through the
-- bioguide_id index (~35k per member at 10M records per vertical, 56 ms p95 for `q=lang`); this reads one row.
CREATE MATERIALIZED VIEW "market_member_trades" AS
  SELECT "bioguide_id", count(*)::int AS "trades"
    FROM "congressional_trades"
   WHERE "superseded_by_id" IS NULL AND "bioguide_id" IS NOT NULL
   GROUP BY 1;
CREATE UNIQUE INDEX "market_member_trades_bioguide_id_key" ON "market_member_trades" ("bioguide_id") INCLUDE ("trades");

CREATE OR REPLACE FUNCTION markets_refresh_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_dates";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_trade_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_member_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_ticker_members";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_disclosure_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_purchase_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_member_trades";
END $$;
