-- One ticker form (docs/api.md "Ticker symbols"): class shares are stored in SEC's dash form (BRK-B). The
-- importers always wrote it; a seeded sandbox and watchlist entries added before could hold BRK.B or BRK/B,
-- which the API (now asking for BRK-B) would no longer find. Rows whose dash form already exists are dropped
-- where the key is the ticker (the dash row is the imported one); the rollups are recomputed afterwards.

DELETE FROM "watchlist_entries" w WHERE w."ticker" ~ '[./ ]' AND EXISTS (
  SELECT 1 FROM "watchlist_entries" d
   WHERE d."account_id" = w."account_id" AND d."ticker" = regexp_replace(upper(w."ticker"), '[./ ]+', '-', 'g'));
UPDATE "watchlist_entries" SET "ticker" = regexp_replace(upper("ticker"), '[./ ]+', '-', 'g') WHERE "ticker" ~ '[./ ]';

DELETE FROM "company_profiles" p WHERE p."ticker" ~ '[./ ]' AND EXISTS (
  SELECT 1 FROM "company_profiles" d WHERE d."ticker" = regexp_replace(upper(p."ticker"), '[./ ]+', '-', 'g'));
UPDATE "company_profiles" SET "ticker" = regexp_replace(upper("ticker"), '[./ ]+', '-', 'g') WHERE "ticker" ~ '[./ ]';

DELETE FROM "daily_prices" p WHERE p."ticker" ~ '[./ ]' AND EXISTS (
  SELECT 1 FROM "daily_prices" d
   WHERE d."date" = p."date" AND d."ticker" = regexp_replace(upper(p."ticker"), '[./ ]+', '-', 'g'));
UPDATE "daily_prices" SET "ticker" = regexp_replace(upper("ticker"), '[./ ]+', '-', 'g') WHERE "ticker" ~ '[./ ]';

UPDATE "signals" SET "ticker" = regexp_replace(upper("ticker"), '[./ ]+', '-', 'g') WHERE "ticker" ~ '[./ ]';
UPDATE "congressional_trades" SET "ticker" = regexp_replace(upper("ticker"), '[./ ]+', '-', 'g') WHERE "ticker" ~ '[./ ]';
UPDATE "companies" SET "ticker" = regexp_replace(upper("ticker"), '[./ ]+', '-', 'g') WHERE "ticker" ~ '[./ ]';

SELECT markets_refresh_rollups();
