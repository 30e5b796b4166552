-- CreateIndex
CREATE INDEX "congressional_trades_member_name_idx" ON "congressional_trades"("member_name");
