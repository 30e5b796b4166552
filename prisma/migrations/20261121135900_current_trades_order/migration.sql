-- Partial indexes over the trades in force (superseded_by_id IS NULL), which every trades list reads; Prisma cannot
-- express partial indexes or INCLUDE, hence by hand.
-- The list order with its id tie-breaker: LIMIT stops after a page instead of sorting a whole trade date (trade
-- dates are days, hundreds to thousands of trades each), and deep pages read ids by an index-only scan.
CREATE INDEX "congressional_trades_current_trade_date_id_idx"
  ON "congressional_trades" ("trade_date" DESC, "id" DESC) WHERE "superseded_by_id" IS NULL;
-- A ticker's latest trades (search, watchlist, company view) and its 90-day summary counts, index-only.
CREATE INDEX "congressional_trades_current_ticker_trade_date_id_idx"
  ON "congressional_trades" ("ticker", "trade_date" DESC, "id" DESC) INCLUDE ("trade_type") WHERE "superseded_by_id" IS NULL;
-- A member's trade count (member search, Member.tradesCount), index-only.
CREATE INDEX "congressional_trades_current_bioguide_id_idx"
  ON "congressional_trades" ("bioguide_id") WHERE "superseded_by_id" IS NULL;
