-- DropIndex
DROP INDEX "insider_transactions_ticker_transaction_date_idx";

-- AlterTable
ALTER TABLE "insider_transactions" ADD COLUMN     "conversion_or_exercise_price" DOUBLE PRECISION,
ADD COLUMN     "exercise_date" DATE,
ADD COLUMN     "expiration_date" DATE,
ADD COLUMN     "underlying_security_title" TEXT,
ADD COLUMN     "underlying_shares" DOUBLE PRECISION;

-- CreateIndex
CREATE INDEX "insider_transactions_ticker_transaction_date_id_idx" ON "insider_transactions"("ticker", "transaction_date" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "insider_transactions_transaction_date_id_idx" ON "insider_transactions"("transaction_date" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "insider_transactions_transaction_code_transaction_date_id_idx" ON "insider_transactions"("transaction_code", "transaction_date" DESC, "id" DESC);
