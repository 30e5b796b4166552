-- The vocabulary of the universal search (hand-written: Prisma cannot express triggers or expression indexes).
-- Every distinct word of every searched text (company, owner and firm names, contact and attorney full names,
-- property addresses), folded as the search folds them. The typo tier looks a query's words up here (a few hundred
-- thousand words at 10M records per vertical) instead of reading the trigram posting lists of every record, then
-- finds the records holding those words through the full-text indexes (docs/api.md, "Universal search").
CREATE TABLE "search_words" ("word" text PRIMARY KEY);
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING GIN ("word" gin_trgm_ops);

-- The words of a text as the full-text indexes hold them.
CREATE OR REPLACE FUNCTION search_words_of(value text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT unnest(tsvector_to_array(to_tsvector('simple', verticals_search_text(value)))) $$;

-- Kept current by one statement per insert or update statement (COPY included), over the rows it wrote: the words
-- of TG_ARGV[0], an expression over those rows' columns. Words of deleted records stay: a word that no record
-- holds any more only costs the typo tier one empty index probe.
CREATE OR REPLACE FUNCTION search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO search_words (word) SELECT DISTINCT search_words_of(%s) FROM written_rows
                  ON CONFLICT DO NOTHING', TG_ARGV[0]);
  RETURN NULL;
END $$;

CREATE TRIGGER "companies_search_words_insert" AFTER INSERT ON "companies" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('name');
CREATE TRIGGER "companies_search_words_update" AFTER UPDATE ON "companies" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('name');
CREATE TRIGGER "contacts_search_words_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('"first_name" || '' '' || "last_name"');
CREATE TRIGGER "contacts_search_words_update" AFTER UPDATE ON "contacts" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('"first_name" || '' '' || "last_name"');
CREATE TRIGGER "properties_search_words_insert" AFTER INSERT ON "properties" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('address');
CREATE TRIGGER "properties_search_words_update" AFTER UPDATE ON "properties" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('address');
CREATE TRIGGER "owners_search_words_insert" AFTER INSERT ON "owners" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('name');
CREATE TRIGGER "owners_search_words_update" AFTER UPDATE ON "owners" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('name');
CREATE TRIGGER "attorneys_search_words_insert" AFTER INSERT ON "attorneys" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('"first_name" || '' '' || "last_name"');
CREATE TRIGGER "attorneys_search_words_update" AFTER UPDATE ON "attorneys" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('"first_name" || '' '' || "last_name"');
CREATE TRIGGER "firms_search_words_insert" AFTER INSERT ON "firms" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('name');
CREATE TRIGGER "firms_search_words_update" AFTER UPDATE ON "firms" REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add('name');

-- The words already stored.
INSERT INTO search_words (word)
  SELECT search_words_of("name") FROM "companies"
  UNION SELECT search_words_of("first_name" || ' ' || "last_name") FROM "contacts"
  UNION SELECT search_words_of("address") FROM "properties"
  UNION SELECT search_words_of("name") FROM "owners"
  UNION SELECT search_words_of("first_name" || ' ' || "last_name") FROM "attorneys"
  UNION SELECT search_words_of("name") FROM "firms"
ON CONFLICT DO NOTHING;
