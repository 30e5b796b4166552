-- The ticker search's summary reads one ticker's days from the rollups (migration market_rollups), whose unique
-- keys lead with the day: by ticker first, index-only (1M: 365 signal days of a ticker in 0.1 ms, where the
-- day-first key meant a sequential scan of all 65k rows, 18 ms).
CREATE INDEX "market_signal_days_ticker_day_idx" ON "market_signal_days" ("ticker", "day") INCLUDE ("signals", "bullish", "neutral");
CREATE INDEX "market_trade_days_ticker_trade_date_idx" ON "market_trade_days" ("ticker", "trade_date") INCLUDE ("trades", "purchases", "sales");
