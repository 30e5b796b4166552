-- DropIndex
DROP INDEX "attorneys_state_city_idx";

-- DropIndex
DROP INDEX "companies_ai_score_idx";

-- DropIndex
DROP INDEX "companies_industry_state_ai_score_idx";

-- DropIndex
DROP INDEX "properties_equity_pct_idx";

-- DropIndex
DROP INDEX "properties_state_equity_pct_idx";

-- CreateIndex
CREATE INDEX "attorneys_state_last_name_id_idx" ON "attorneys"("state", "last_name", "id");

-- CreateIndex
CREATE INDEX "companies_industry_state_ai_score_id_idx" ON "companies"("industry", "state", "ai_score" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "companies_industry_ai_score_id_idx" ON "companies"("industry", "ai_score" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "companies_ai_score_id_idx" ON "companies"("ai_score" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "properties_state_equity_pct_id_idx" ON "properties"("state", "equity_pct" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "properties_equity_pct_id_idx" ON "properties"("equity_pct" DESC, "id" DESC);
