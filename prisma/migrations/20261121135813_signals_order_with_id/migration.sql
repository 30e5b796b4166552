-- DropIndex
DROP INDEX "signals_created_at_idx";

-- DropIndex
DROP INDEX "signals_signal_type_created_at_idx";

-- DropIndex
DROP INDEX "signals_ticker_created_at_idx";

-- CreateIndex
CREATE INDEX "signals_created_at_id_idx" ON "signals"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "signals_ticker_created_at_id_sentiment_idx" ON "signals"("ticker", "created_at" DESC, "id" DESC, "sentiment");

-- CreateIndex
CREATE INDEX "signals_signal_type_created_at_id_idx" ON "signals"("signal_type", "created_at" DESC, "id" DESC);
