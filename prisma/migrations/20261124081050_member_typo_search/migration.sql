-- Typo-tolerant member search (hand-written: Prisma cannot express extensions): levenshtein_less_equal from
-- fuzzystrmatch (contrib, on PostgreSQL and PGlite alike), used by subgraphs/markets/member-match.ts.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
