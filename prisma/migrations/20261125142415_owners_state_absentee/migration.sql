-- Owners by mailing state and absentee (the documented selective filter): one index answers both, so the count
-- is index-only. Before, the planner intersected a bitmap of every absentee owner (1.2M entries at 10M records,
-- 24-27 ms) with the state's; the state alone still leads this index.
-- DropIndex
DROP INDEX "owners_mailing_state_idx";

-- CreateIndex
CREATE INDEX "owners_mailing_state_absentee_idx" ON "owners"("mailing_state", "absentee");
