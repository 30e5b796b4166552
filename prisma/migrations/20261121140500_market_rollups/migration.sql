-- Market rollups (hand-written: Prisma cannot express materialized views or functions).
-- The aggregate routes (convergence leads, trade summary, briefings, public statistics) read these instead of
-- scanning millions of signals and trades per request. Their size depends on tickers × days and members × days,
-- not on the number of records. markets_refresh_rollups() brings them up to date; the seeder and every import run
-- call it after writing (docs/api.md, "Rollups and freshness"). Time windows are applied at request time, so a
-- rollup never ages: only records written since the last refresh are missing from it.

-- Signals per ticker and UTC day (created_at is stored in UTC).
CREATE MATERIALIZED VIEW "market_signal_days" AS
  SELECT "ticker", "created_at"::date AS "day", count(*)::int AS "signals",
         (count(*) FILTER (WHERE "sentiment" = 'BULLISH'))::int AS "bullish",
         (count(*) FILTER (WHERE "sentiment" = 'NEUTRAL'))::int AS "neutral"
    FROM "signals" GROUP BY 1, 2;
CREATE UNIQUE INDEX "market_signal_days_day_ticker_key" ON "market_signal_days" ("day", "ticker");

-- Trades in force per trade date and ticker ('' for none, so the unique key has no NULL).
CREATE MATERIALIZED VIEW "market_trade_days" AS
  SELECT "trade_date", coalesce("ticker", '') AS "ticker", count(*)::int AS "trades",
         (count(*) FILTER (WHERE "trade_type" = 'purchase'))::int AS "purchases",
         (count(*) FILTER (WHERE "trade_type" IN ('sale', 'sale_partial')))::int AS "sales"
    FROM "congressional_trades" WHERE "superseded_by_id" IS NULL GROUP BY 1, 2;
CREATE UNIQUE INDEX "market_trade_days_trade_date_ticker_key" ON "market_trade_days" ("trade_date", "ticker");

-- Trades in force per trade date and member as disclosed (bioguide id '' for none).
CREATE MATERIALIZED VIEW "market_member_days" AS
  SELECT "trade_date", coalesce("bioguide_id", '') AS "bioguide_id", "member_name",
         max("party") AS "party", max("chamber") AS "chamber", count(*)::int AS "trades",
         (count(*) FILTER (WHERE "trade_type" = 'purchase'))::int AS "purchases",
         (count(*) FILTER (WHERE "trade_type" IN ('sale', 'sale_partial')))::int AS "sales"
    FROM "congressional_trades" WHERE "superseded_by_id" IS NULL GROUP BY 1, 2, 3;
CREATE UNIQUE INDEX "market_member_days_trade_date_member_key" ON "market_member_days" ("trade_date", "bioguide_id", "member_name");

-- Each member's latest trade and latest purchase of each ticker: "members who traded (bought) it since D" is
-- "rows whose latest date is on or after D", exact for any window. A member is the bioguide id, else the name.
CREATE MATERIALIZED VIEW "market_ticker_members" AS
  SELECT "ticker", coalesce("bioguide_id", 'name:' || "member_name") AS "member_key",
         max("trade_date") AS "last_trade_date",
         max("trade_date") FILTER (WHERE "trade_type" = 'purchase') AS "last_purchase_date",
         (array_agg("member_name" ORDER BY "trade_date" DESC, "id") FILTER (WHERE "trade_type" = 'purchase'))[1] AS "purchase_name"
    FROM "congressional_trades" WHERE "superseded_by_id" IS NULL AND "ticker" IS NOT NULL GROUP BY 1, 2;
CREATE UNIQUE INDEX "market_ticker_members_ticker_member_key" ON "market_ticker_members" ("ticker", "member_key");

-- Trades in force per disclosure date ('infinity' for not yet disclosed, so the unique key has no NULL).
CREATE MATERIALIZED VIEW "market_disclosure_days" AS
  SELECT coalesce("disclosure_date", 'infinity'::date) AS "day", count(*)::int AS "trades"
    FROM "congressional_trades" WHERE "superseded_by_id" IS NULL GROUP BY 1;
CREATE UNIQUE INDEX "market_disclosure_days_day_key" ON "market_disclosure_days" ("day");

-- CONCURRENTLY: readers keep the previous contents while a refresh runs instead of waiting for it.
CREATE OR REPLACE FUNCTION markets_refresh_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_signal_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_trade_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_member_days";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_ticker_members";
  REFRESH MATERIALIZED VIEW CONCURRENTLY "market_disclosure_days";
END $$;
