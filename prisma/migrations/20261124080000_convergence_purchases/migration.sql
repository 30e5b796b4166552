-- Convergence leads of a window that ends before the newest purchase (`as_of`) read the window's purchases in force
-- (hand-written: Prisma cannot express partial indexes or INCLUDE): each member's latest purchase
-- (market_ticker_members) cannot answer such a window, so they are read from this index alone: trade date first
-- for the range, then what the score counts (ticker, member, amount bounds), index-only.
CREATE INDEX "congressional_trades_current_purchases_idx"
  ON "congressional_trades" ("trade_date", "ticker")
  INCLUDE ("bioguide_id", "member_name", "amount_low", "amount_high")
  WHERE "superseded_by_id" IS NULL AND "trade_type" = 'purchase';
