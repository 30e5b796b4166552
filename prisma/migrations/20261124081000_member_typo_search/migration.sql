-- Typo-tolerant member search (hand-written: Prisma cannot express extensions' functions). levenshtein comes from
-- fuzzystrmatch (contrib, on PostgreSQL and PGlite alike); the candidates come from the trigram GIN indexes.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

-- The typos a query word may carry: none below 4 letters (too many names are that close), one at 4-5 letters, two
-- from 6 ("kahnna" → "khanna", a swap, is two edits).
CREATE OR REPLACE FUNCTION markets_typo_budget(word text) RETURNS int
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT CASE WHEN length(word) >= 6 THEN 2 WHEN length(word) >= 4 THEN 1 ELSE 0 END $$;

-- Whether a folded name (words separated by one space, as markets_fold_name writes them) has a word within the
-- query word's typo budget: "pelosy" is near "pelosi", "gotheimer" near "gottheimer".
CREATE OR REPLACE FUNCTION markets_name_has_near_word(name text, word text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT EXISTS (
      SELECT 1 FROM unnest(string_to_array(name, ' ')) AS name_word
      WHERE public.levenshtein_less_equal(name_word, word, markets_typo_budget(word)) <= markets_typo_budget(word))
  $$;
