-- The insider trades `insider` filter (hand-written: Prisma cannot express expression indexes): every word of the
-- query must occur in the folded owner name (markets_fold_name, as for member names), found through trigrams.
CREATE INDEX "insider_transactions_owner_name_folded_trgm_idx"
  ON "insider_transactions" USING GIN (markets_fold_name("owner_name") gin_trgm_ops);
