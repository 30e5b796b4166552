-- Extensions for fuzzy name and full-text search (trigram similarity, accent folding).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- CreateTable
CREATE TABLE "companies" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "industry" TEXT NOT NULL,
    "industry_name" TEXT NOT NULL,
    "revenue_usd" DOUBLE PRECISION NOT NULL,
    "employees" INTEGER NOT NULL,
    "state" CHAR(2) NOT NULL,
    "city" TEXT NOT NULL,
    "website" TEXT NOT NULL,
    "ticker" TEXT,
    "founded_year" INTEGER NOT NULL,
    "ai_score" INTEGER NOT NULL,
    "decision_maker_id" INTEGER,
    "decision_maker" TEXT NOT NULL,
    "decision_maker_title" TEXT NOT NULL,
    "decision_maker_email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "companies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contacts" (
    "id" SERIAL NOT NULL,
    "company_id" INTEGER NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "seniority" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL,
    "phone" TEXT NOT NULL,
    "linkedin_url" TEXT NOT NULL,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "owners" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "owner_type" TEXT NOT NULL,
    "mailing_address" TEXT NOT NULL,
    "mailing_city" TEXT NOT NULL,
    "mailing_state" CHAR(2) NOT NULL,
    "mailing_zip" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "properties_count" INTEGER NOT NULL,
    "portfolio_value" DOUBLE PRECISION NOT NULL,
    "absentee" BOOLEAN NOT NULL,

    CONSTRAINT "owners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "properties" (
    "id" SERIAL NOT NULL,
    "address" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "state" CHAR(2) NOT NULL,
    "zip" TEXT NOT NULL,
    "county" TEXT NOT NULL,
    "property_type" TEXT NOT NULL,
    "bedrooms" INTEGER,
    "bathrooms" DOUBLE PRECISION,
    "sqft" INTEGER,
    "year_built" INTEGER,
    "estimated_value" DOUBLE PRECISION NOT NULL,
    "mortgage_balance" DOUBLE PRECISION NOT NULL,
    "equity_pct" DOUBLE PRECISION NOT NULL,
    "last_sale_date" DATE,
    "last_sale_price" DOUBLE PRECISION,
    "owner_id" INTEGER NOT NULL,
    "absentee_owner" BOOLEAN NOT NULL,

    CONSTRAINT "properties_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "firms" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "hq_city" TEXT NOT NULL,
    "hq_state" CHAR(2) NOT NULL,
    "size" INTEGER NOT NULL,
    "practice_areas" TEXT[],
    "website" TEXT NOT NULL,
    "founded_year" INTEGER NOT NULL,

    CONSTRAINT "firms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attorneys" (
    "id" SERIAL NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "firm_id" INTEGER,
    "is_partner" BOOLEAN NOT NULL,
    "practice_areas" TEXT[],
    "state" CHAR(2) NOT NULL,
    "city" TEXT NOT NULL,
    "bar_number" TEXT NOT NULL,
    "bar_status" TEXT NOT NULL,
    "bar_verified" BOOLEAN NOT NULL,
    "verified_at" TIMESTAMP(3),
    "admitted_year" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL,

    CONSTRAINT "attorneys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" SERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "record_id" TEXT NOT NULL,
    "vertical" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'new',
    "notes" TEXT,
    "tags" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "report_jobs" (
    "id" SERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "vertical" TEXT NOT NULL,
    "filters" JSONB NOT NULL,
    "format" TEXT NOT NULL,
    "fields" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'queued',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "row_count" INTEGER NOT NULL DEFAULT 0,
    "file_path" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "heartbeat_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "report_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signals" (
    "id" UUID NOT NULL,
    "ticker" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "signal_type" TEXT NOT NULL,
    "filing_type" TEXT NOT NULL,
    "ai_summary" TEXT NOT NULL,
    "materiality_score" INTEGER NOT NULL,
    "sentiment" TEXT NOT NULL,
    "urgent" BOOLEAN NOT NULL,
    "source_url" TEXT NOT NULL,
    "source_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "signals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "members" (
    "bioguide_id" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "full_name" TEXT NOT NULL,
    "party" TEXT NOT NULL,
    "chamber" TEXT NOT NULL,
    "state" CHAR(2) NOT NULL,
    "district" TEXT,
    "committees" TEXT[],

    CONSTRAINT "members_pkey" PRIMARY KEY ("bioguide_id")
);

-- CreateTable
CREATE TABLE "congressional_trades" (
    "id" UUID NOT NULL,
    "bioguide_id" TEXT,
    "member_name" TEXT NOT NULL,
    "party" TEXT,
    "chamber" TEXT NOT NULL,
    "ticker" TEXT,
    "asset_description" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "trade_type" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "amount_range" TEXT NOT NULL,
    "amount_low" DOUBLE PRECISION,
    "amount_high" DOUBLE PRECISION,
    "trade_date" DATE NOT NULL,
    "disclosure_date" DATE,
    "disclosure_lag_days" INTEGER,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "source" TEXT NOT NULL,
    "filing_url" TEXT,
    "natural_key" TEXT NOT NULL,
    "superseded_by_id" UUID,

    CONSTRAINT "congressional_trades_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "filings" (
    "accession_number" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "ticker" TEXT,
    "form_type" TEXT NOT NULL,
    "filed_at" DATE NOT NULL,
    "items" TEXT[],
    "url" TEXT NOT NULL,
    "fetched_at" TIMESTAMP(3),

    CONSTRAINT "filings_pkey" PRIMARY KEY ("accession_number")
);

-- CreateTable
CREATE TABLE "insider_transactions" (
    "id" UUID NOT NULL,
    "accession_number" TEXT NOT NULL,
    "ticker" TEXT NOT NULL,
    "issuer_cik" TEXT NOT NULL,
    "owner_name" TEXT NOT NULL,
    "owner_cik" TEXT NOT NULL,
    "owner_title" TEXT,
    "security_title" TEXT NOT NULL,
    "derivative" BOOLEAN NOT NULL,
    "transaction_date" DATE NOT NULL,
    "transaction_code" TEXT NOT NULL,
    "shares" DOUBLE PRECISION NOT NULL,
    "price_per_share" DOUBLE PRECISION,
    "acquired_disposed" TEXT NOT NULL,
    "shares_owned_after" DOUBLE PRECISION,
    "direct_ownership" BOOLEAN NOT NULL,
    "rule_10b5_1" BOOLEAN NOT NULL,
    "sequence" INTEGER NOT NULL,

    CONSTRAINT "insider_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "watchlist_entries" (
    "id" SERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "ticker" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watchlist_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "company_profiles" (
    "ticker" TEXT NOT NULL,
    "cik" TEXT,
    "company_name" TEXT NOT NULL,
    "sector" TEXT NOT NULL,
    "industry" TEXT NOT NULL,
    "market_cap" DOUBLE PRECISION,
    "ceo" TEXT,
    "description" TEXT NOT NULL,
    "website" TEXT,
    "employees" INTEGER,
    "headquarters" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "company_profiles_pkey" PRIMARY KEY ("ticker")
);

-- CreateTable
CREATE TABLE "daily_prices" (
    "ticker" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "open" DOUBLE PRECISION NOT NULL,
    "high" DOUBLE PRECISION NOT NULL,
    "low" DOUBLE PRECISION NOT NULL,
    "close" DOUBLE PRECISION NOT NULL,
    "volume" BIGINT NOT NULL,

    CONSTRAINT "daily_prices_pkey" PRIMARY KEY ("ticker","date")
);

-- CreateTable
CREATE TABLE "briefings" (
    "date" DATE NOT NULL,
    "headline" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "generated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "briefings_pkey" PRIMARY KEY ("date")
);

-- CreateTable
CREATE TABLE "yield_curve_points" (
    "date" DATE NOT NULL,
    "tenor_months" INTEGER NOT NULL,
    "rate_pct" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "yield_curve_points_pkey" PRIMARY KEY ("date","tenor_months")
);

-- CreateTable
CREATE TABLE "macro_indicators" (
    "series_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "macro_indicators_pkey" PRIMARY KEY ("series_id","date")
);

-- CreateTable
CREATE TABLE "import_rejects" (
    "id" SERIAL NOT NULL,
    "source" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "record" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_rejects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT,
    "plan" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "mode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "calls_used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_counters" (
    "account_id" UUID NOT NULL,
    "mode" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("account_id","mode","day")
);

-- CreateIndex
CREATE INDEX "companies_industry_state_ai_score_idx" ON "companies"("industry", "state", "ai_score" DESC);

-- CreateIndex
CREATE INDEX "companies_state_ai_score_idx" ON "companies"("state", "ai_score" DESC);

-- CreateIndex
CREATE INDEX "companies_ai_score_idx" ON "companies"("ai_score" DESC);

-- CreateIndex
CREATE INDEX "companies_revenue_usd_idx" ON "companies"("revenue_usd");

-- CreateIndex
CREATE INDEX "companies_employees_idx" ON "companies"("employees");

-- CreateIndex
CREATE INDEX "companies_ticker_idx" ON "companies"("ticker");

-- CreateIndex
CREATE INDEX "contacts_company_id_idx" ON "contacts"("company_id");

-- CreateIndex
CREATE INDEX "contacts_seniority_department_idx" ON "contacts"("seniority", "department");

-- CreateIndex
CREATE INDEX "contacts_department_idx" ON "contacts"("department");

-- CreateIndex
CREATE INDEX "contacts_email_verified_idx" ON "contacts"("email_verified");

-- CreateIndex
CREATE INDEX "owners_owner_type_idx" ON "owners"("owner_type");

-- CreateIndex
CREATE INDEX "owners_properties_count_idx" ON "owners"("properties_count");

-- CreateIndex
CREATE INDEX "owners_portfolio_value_idx" ON "owners"("portfolio_value");

-- CreateIndex
CREATE INDEX "owners_mailing_state_idx" ON "owners"("mailing_state");

-- CreateIndex
CREATE INDEX "owners_absentee_idx" ON "owners"("absentee");

-- CreateIndex
CREATE INDEX "properties_state_equity_pct_idx" ON "properties"("state", "equity_pct" DESC);

-- CreateIndex
CREATE INDEX "properties_equity_pct_idx" ON "properties"("equity_pct" DESC);

-- CreateIndex
CREATE INDEX "properties_estimated_value_idx" ON "properties"("estimated_value");

-- CreateIndex
CREATE INDEX "properties_owner_id_idx" ON "properties"("owner_id");

-- CreateIndex
CREATE INDEX "properties_property_type_idx" ON "properties"("property_type");

-- CreateIndex
CREATE INDEX "firms_hq_state_idx" ON "firms"("hq_state");

-- CreateIndex
CREATE INDEX "firms_size_idx" ON "firms"("size");

-- CreateIndex
CREATE INDEX "firms_practice_areas_idx" ON "firms" USING GIN ("practice_areas");

-- CreateIndex
CREATE INDEX "attorneys_state_city_idx" ON "attorneys"("state", "city");

-- CreateIndex
CREATE INDEX "attorneys_practice_areas_idx" ON "attorneys" USING GIN ("practice_areas");

-- CreateIndex
CREATE INDEX "attorneys_bar_status_idx" ON "attorneys"("bar_status");

-- CreateIndex
CREATE INDEX "attorneys_firm_id_is_partner_idx" ON "attorneys"("firm_id", "is_partner");

-- CreateIndex
CREATE INDEX "attorneys_admitted_year_idx" ON "attorneys"("admitted_year");

-- CreateIndex
CREATE INDEX "leads_account_id_status_created_at_idx" ON "leads"("account_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "leads_account_id_vertical_idx" ON "leads"("account_id", "vertical");

-- CreateIndex
CREATE INDEX "leads_tags_idx" ON "leads" USING GIN ("tags");

-- CreateIndex
CREATE UNIQUE INDEX "leads_account_id_record_id_key" ON "leads"("account_id", "record_id");

-- CreateIndex
CREATE INDEX "report_jobs_status_created_at_idx" ON "report_jobs"("status", "created_at");

-- CreateIndex
CREATE INDEX "report_jobs_account_id_created_at_idx" ON "report_jobs"("account_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "signals_source_key_key" ON "signals"("source_key");

-- CreateIndex
CREATE INDEX "signals_created_at_idx" ON "signals"("created_at" DESC);

-- CreateIndex
CREATE INDEX "signals_ticker_created_at_idx" ON "signals"("ticker", "created_at" DESC);

-- CreateIndex
CREATE INDEX "signals_signal_type_created_at_idx" ON "signals"("signal_type", "created_at" DESC);

-- CreateIndex
CREATE INDEX "signals_sentiment_created_at_idx" ON "signals"("sentiment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "members_chamber_party_idx" ON "members"("chamber", "party");

-- CreateIndex
CREATE UNIQUE INDEX "congressional_trades_natural_key_key" ON "congressional_trades"("natural_key");

-- CreateIndex
CREATE INDEX "congressional_trades_trade_date_idx" ON "congressional_trades"("trade_date" DESC);

-- CreateIndex
CREATE INDEX "congressional_trades_ticker_trade_date_idx" ON "congressional_trades"("ticker", "trade_date" DESC);

-- CreateIndex
CREATE INDEX "congressional_trades_bioguide_id_trade_date_idx" ON "congressional_trades"("bioguide_id", "trade_date" DESC);

-- CreateIndex
CREATE INDEX "congressional_trades_chamber_trade_date_idx" ON "congressional_trades"("chamber", "trade_date" DESC);

-- CreateIndex
CREATE INDEX "congressional_trades_party_trade_date_idx" ON "congressional_trades"("party", "trade_date" DESC);

-- CreateIndex
CREATE INDEX "congressional_trades_trade_type_trade_date_idx" ON "congressional_trades"("trade_type", "trade_date" DESC);

-- CreateIndex
CREATE INDEX "filings_cik_filed_at_idx" ON "filings"("cik", "filed_at" DESC);

-- CreateIndex
CREATE INDEX "filings_form_type_filed_at_idx" ON "filings"("form_type", "filed_at" DESC);

-- CreateIndex
CREATE INDEX "filings_fetched_at_idx" ON "filings"("fetched_at");

-- CreateIndex
CREATE INDEX "insider_transactions_ticker_transaction_date_idx" ON "insider_transactions"("ticker", "transaction_date" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "insider_transactions_accession_number_derivative_sequence_key" ON "insider_transactions"("accession_number", "derivative", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "watchlist_entries_account_id_ticker_key" ON "watchlist_entries"("account_id", "ticker");

-- CreateIndex
CREATE INDEX "company_profiles_cik_idx" ON "company_profiles"("cik");

-- CreateIndex
CREATE INDEX "import_rejects_source_created_at_idx" ON "import_rejects"("source", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "properties" ADD CONSTRAINT "properties_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attorneys" ADD CONSTRAINT "attorneys_firm_id_fkey" FOREIGN KEY ("firm_id") REFERENCES "firms"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "congressional_trades" ADD CONSTRAINT "congressional_trades_bioguide_id_fkey" FOREIGN KEY ("bioguide_id") REFERENCES "members"("bioguide_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
