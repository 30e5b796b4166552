-- The congressional trades list's `total` for a chamber and party (the documented chamber=senate&party=D): the
-- capped count (docs/api.md, "Totals") reads it index-only and stops at the cap, where the separate chamber and
-- party indexes needed a bitmap of every match and its heap blocks (157 ms at 1M records, 1.7 ms with this).
-- Ordered as the list (trade date, id), so the page of such a filter stops after its rows too. Partial, as
-- every list reads only trades in force; Prisma cannot express that, hence by hand.
CREATE INDEX "congressional_trades_current_chamber_party_trade_date_id_idx"
  ON "congressional_trades" ("chamber", "party", "trade_date" DESC, "id" DESC) WHERE "superseded_by_id" IS NULL;
