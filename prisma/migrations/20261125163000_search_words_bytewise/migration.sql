-- The search vocabulary in byte order, whatever the database's collation (text_pattern_ops). In byte order the words
-- beginning with a prefix are one contiguous run starting at the prefix, so the first word at or after it says
-- whether any word begins with it: one index probe per query word for the universal search's prefixes check
-- (subgraphs/verticals/search/held-prefixes.ts). A LIKE 'prefix%' with the prefix computed per query word read the
-- whole vocabulary instead (32,368 words at 10M records per vertical: 2.5 ms). Hand-written, and partial on a
-- condition every word meets (the column is the key): Prisma's schema cannot say a btree operator class and leaves
-- partial indexes to the migrations, as it does the search's other indexes. The probe's `~>=~` is strict, so the
-- planner knows it implies the predicate.
CREATE INDEX "search_words_bytewise_idx" ON "search_words"("word" text_pattern_ops) WHERE "word" IS NOT NULL;
