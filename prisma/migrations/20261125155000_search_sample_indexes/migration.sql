-- A fixed sample of each searched table for the universal search's words and prefixes tiers (hand-written: Prisma
-- cannot express partial expression indexes). Each is the table's full-text index over the records whose id is a
-- multiple of 64 (SAMPLE_MODULUS, subgraphs/verticals/search/query.ts). A GIN index has no scan that stops early,
-- so a word held by many records paid for every holder before the first 100 candidates were read: `walker` built a
-- bitmap of 127,984 contacts at 10M records per vertical (20-30 ms, lossy past work_mem, then rechecked). The search
-- reads a type's sample first and the whole index only when the sample holds fewer than 100 matches, so the
-- bitmaps it builds stay near 6,400 entries at most (docs/api.md, "Universal search").
CREATE INDEX "companies_name_search_sample_idx" ON "companies"
  USING GIN (to_tsvector('simple', verticals_search_text("name"))) WHERE "id" % 64 = 0;
CREATE INDEX "contacts_name_search_sample_idx" ON "contacts"
  USING GIN (to_tsvector('simple', verticals_search_text("first_name" || ' ' || "last_name"))) WHERE "id" % 64 = 0;
CREATE INDEX "properties_address_search_sample_idx" ON "properties"
  USING GIN (to_tsvector('simple', verticals_search_text("address"))) WHERE "id" % 64 = 0;
CREATE INDEX "owners_name_search_sample_idx" ON "owners"
  USING GIN (to_tsvector('simple', verticals_search_text("name"))) WHERE "id" % 64 = 0;
CREATE INDEX "attorneys_name_search_sample_idx" ON "attorneys"
  USING GIN (to_tsvector('simple', verticals_search_text("first_name" || ' ' || "last_name"))) WHERE "id" % 64 = 0;
CREATE INDEX "firms_name_search_sample_idx" ON "firms"
  USING GIN (to_tsvector('simple', verticals_search_text("name"))) WHERE "id" % 64 = 0;
