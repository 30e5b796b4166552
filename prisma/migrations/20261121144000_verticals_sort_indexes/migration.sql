-- DropIndex
DROP INDEX "attorneys_admitted_year_idx";

-- DropIndex
DROP INDEX "companies_employees_idx";

-- DropIndex
DROP INDEX "companies_revenue_usd_idx";

-- DropIndex
DROP INDEX "contacts_company_id_idx";

-- DropIndex
DROP INDEX "contacts_department_idx";

-- DropIndex
DROP INDEX "firms_hq_state_idx";

-- DropIndex
DROP INDEX "firms_size_idx";

-- DropIndex
DROP INDEX "owners_portfolio_value_idx";

-- DropIndex
DROP INDEX "owners_properties_count_idx";

-- DropIndex
DROP INDEX "properties_estimated_value_idx";

-- CreateIndex
CREATE INDEX "attorneys_admitted_year_id_idx" ON "attorneys"("admitted_year", "id");

-- CreateIndex
CREATE INDEX "attorneys_state_id_idx" ON "attorneys"("state", "id");

-- CreateIndex
CREATE INDEX "attorneys_city_id_idx" ON "attorneys"("city", "id");

-- CreateIndex
CREATE INDEX "attorneys_verified_at_id_idx" ON "attorneys"("verified_at", "id");

-- CreateIndex
CREATE INDEX "companies_revenue_usd_id_idx" ON "companies"("revenue_usd", "id");

-- CreateIndex
CREATE INDEX "companies_employees_id_idx" ON "companies"("employees", "id");

-- CreateIndex
CREATE INDEX "companies_name_id_idx" ON "companies"("name", "id");

-- CreateIndex
CREATE INDEX "companies_state_id_idx" ON "companies"("state", "id");

-- CreateIndex
CREATE INDEX "contacts_company_id_id_idx" ON "contacts"("company_id", "id");

-- CreateIndex
CREATE INDEX "contacts_department_id_idx" ON "contacts"("department", "id");

-- CreateIndex
CREATE INDEX "contacts_last_name_id_idx" ON "contacts"("last_name", "id");

-- CreateIndex
CREATE INDEX "contacts_title_id_idx" ON "contacts"("title", "id");

-- CreateIndex
CREATE INDEX "firms_hq_state_id_idx" ON "firms"("hq_state", "id");

-- CreateIndex
CREATE INDEX "firms_size_id_idx" ON "firms"("size", "id");

-- CreateIndex
CREATE INDEX "firms_name_id_idx" ON "firms"("name", "id");

-- CreateIndex
CREATE INDEX "firms_founded_year_id_idx" ON "firms"("founded_year", "id");

-- CreateIndex
CREATE INDEX "owners_properties_count_id_idx" ON "owners"("properties_count", "id");

-- CreateIndex
CREATE INDEX "owners_portfolio_value_id_idx" ON "owners"("portfolio_value", "id");

-- CreateIndex
CREATE INDEX "owners_name_id_idx" ON "owners"("name", "id");

-- CreateIndex
CREATE INDEX "properties_estimated_value_id_idx" ON "properties"("estimated_value", "id");

-- CreateIndex
CREATE INDEX "properties_mortgage_balance_id_idx" ON "properties"("mortgage_balance", "id");

-- CreateIndex
CREATE INDEX "properties_last_sale_date_id_idx" ON "properties"("last_sale_date", "id");

-- CreateIndex
CREATE INDEX "properties_last_sale_price_id_idx" ON "properties"("last_sale_price", "id");

-- CreateIndex
CREATE INDEX "properties_year_built_id_idx" ON "properties"("year_built", "id");

-- CreateIndex
CREATE INDEX "properties_sqft_id_idx" ON "properties"("sqft", "id");
