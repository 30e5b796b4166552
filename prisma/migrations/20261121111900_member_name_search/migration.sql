-- Member-name search (hand-written: Prisma cannot express functions or expression indexes).
-- markets_fold_name is the SQL twin of foldName() in subgraphs/markets/names.ts: accents folded, lower case,
-- apostrophes dropped, any other run of punctuation or spaces made one space. It is IMMUTABLE (unaccent with
-- an explicit dictionary) so it can back an index.
CREATE OR REPLACE FUNCTION markets_fold_name(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT btrim(regexp_replace(
      regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, name)), '[''’`]', '', 'g'),
      '[^a-z0-9]+', ' ', 'g'))
  $$;

-- Trigram indexes: partial-name LIKE filters and similarity ranking over the folded names.
CREATE INDEX "members_full_name_folded_trgm_idx"
  ON "members" USING GIN (markets_fold_name("full_name") gin_trgm_ops);
CREATE INDEX "congressional_trades_member_name_folded_trgm_idx"
  ON "congressional_trades" USING GIN (markets_fold_name("member_name") gin_trgm_ops);
