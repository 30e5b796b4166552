-- The attorneys list's `total` for a state and a practice area (the documented practice_area=Bankruptcy&state=NY).
-- With one index per column PostgreSQL intersects two bitmaps (every attorney of the practice area, every attorney
-- of the state) before it counts a row, so the capped count (docs/api.md, "Totals") cannot stop early: 35-79 ms
-- at 1M records, ~10x that at 10M. One GIN key per (state, practice area) finds just the matches (0.3 ms for
-- 4,439 at 1M). subgraphs/shared/totals.ts counts that filter pair through this expression; states are two
-- letters, so `NY/Bankruptcy` means exactly state NY and practice area Bankruptcy.
CREATE FUNCTION verticals_state_practice_areas(state text, areas text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array(SELECT state || '/' || area FROM unnest(areas) AS area) $$;

CREATE INDEX "attorneys_state_practice_areas_idx"
  ON "attorneys" USING GIN (verticals_state_practice_areas("state", "practice_areas"));
