-- Its two readers, convergence and the ticker summary, read the running totals of market_signal_totals, which
-- hold the same counts; keeping both made every refresh aggregate all signals twice (4.9 s more at 10M records).
DROP MATERIALIZED VIEW "market_signal_days";
