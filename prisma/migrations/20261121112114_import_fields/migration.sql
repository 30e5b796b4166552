-- AlterTable
ALTER TABLE "congressional_trades" ADD COLUMN     "identity_key" TEXT,
ADD COLUMN     "option_detail" TEXT;

-- AlterTable
ALTER TABLE "import_rejects" ADD COLUMN     "record_key" TEXT;

-- AlterTable
ALTER TABLE "members" ADD COLUMN     "name_folded" TEXT;

-- CreateIndex
CREATE INDEX "congressional_trades_identity_key_idx" ON "congressional_trades"("identity_key");

-- CreateIndex
CREATE UNIQUE INDEX "import_rejects_source_record_key_key" ON "import_rejects"("source", "record_key");
