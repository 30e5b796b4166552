-- CreateIndex
CREATE INDEX "attorneys_last_name_id_idx" ON "attorneys"("last_name", "id");
