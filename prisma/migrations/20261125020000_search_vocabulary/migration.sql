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

-- Per table, its searched text (the `search.text` of its model file, test/verticals/search.test.ts checks they
-- agree): an insert and an update trigger (a trigger with transition tables takes one event), and the words
-- already stored.
DO $$
DECLARE
  searched record;
BEGIN
  FOR searched IN SELECT * FROM (VALUES
      ('companies', 'name'),
      ('contacts', '"first_name" || '' '' || "last_name"'),
      ('properties', 'address'),
      ('owners', 'name'),
      ('attorneys', '"first_name" || '' '' || "last_name"'),
      ('firms', 'name')) AS t(table_name, text_expression)
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS written_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION search_words_add(%L)',
                   searched.table_name || '_search_words_insert', searched.table_name, searched.text_expression);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS written_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION search_words_add(%L)',
                   searched.table_name || '_search_words_update', searched.table_name, searched.text_expression);
    EXECUTE format('INSERT INTO search_words (word) SELECT DISTINCT search_words_of(%s) FROM %I ON CONFLICT DO NOTHING',
                   searched.text_expression, searched.table_name);
  END LOOP;
END $$;
