-- Universal search (hand-written: Prisma cannot express functions or expression indexes).
-- verticals_search_text folds case and accents; it is IMMUTABLE (unaccent with an explicit dictionary) so it
-- can back an index. Each searchable name has a trigram index (typo-tolerant `%`/`%>` matching) and a
-- full-text index (`@@` on the 'simple' configuration: no stemming, names are not prose).
CREATE OR REPLACE FUNCTION verticals_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;

CREATE INDEX "companies_name_search_trgm_idx" ON "companies" USING GIN (verticals_search_text("name") gin_trgm_ops);
CREATE INDEX "companies_name_search_fts_idx" ON "companies" USING GIN (to_tsvector('simple', verticals_search_text("name")));

CREATE INDEX "contacts_name_search_trgm_idx" ON "contacts"
  USING GIN (verticals_search_text("first_name" || ' ' || "last_name") gin_trgm_ops);
CREATE INDEX "contacts_name_search_fts_idx" ON "contacts"
  USING GIN (to_tsvector('simple', verticals_search_text("first_name" || ' ' || "last_name")));

CREATE INDEX "properties_address_search_trgm_idx" ON "properties" USING GIN (verticals_search_text("address") gin_trgm_ops);
CREATE INDEX "properties_address_search_fts_idx" ON "properties" USING GIN (to_tsvector('simple', verticals_search_text("address")));

CREATE INDEX "owners_name_search_trgm_idx" ON "owners" USING GIN (verticals_search_text("name") gin_trgm_ops);
CREATE INDEX "owners_name_search_fts_idx" ON "owners" USING GIN (to_tsvector('simple', verticals_search_text("name")));

CREATE INDEX "attorneys_name_search_trgm_idx" ON "attorneys"
  USING GIN (verticals_search_text("first_name" || ' ' || "last_name") gin_trgm_ops);
CREATE INDEX "attorneys_name_search_fts_idx" ON "attorneys"
  USING GIN (to_tsvector('simple', verticals_search_text("first_name" || ' ' || "last_name")));

CREATE INDEX "firms_name_search_trgm_idx" ON "firms" USING GIN (verticals_search_text("name") gin_trgm_ops);
CREATE INDEX "firms_name_search_fts_idx" ON "firms" USING GIN (to_tsvector('simple', verticals_search_text("name")));

-- Report workers claim the oldest queued job, and reclaim processing jobs whose heartbeat stopped.
CREATE INDEX "report_jobs_processing_heartbeat_idx" ON "report_jobs" ("heartbeat_at") WHERE "status" = 'processing';
