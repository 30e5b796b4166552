-- Member search matches every disclosed form of the name of a member (members.name_folded, written by the importers
-- and the generator with foldName) and falls back to the full name, and the index follows that expression.
DROP INDEX IF EXISTS "members_full_name_folded_trgm_idx";
CREATE INDEX "members_name_forms_folded_trgm_idx"
  ON "members" USING GIN (markets_fold_name(coalesce("name_folded", "full_name")) gin_trgm_ops);
