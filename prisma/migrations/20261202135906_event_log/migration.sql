-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "seq" BIGSERIAL NOT NULL,
ADD COLUMN     "xid" xid8 NOT NULL DEFAULT pg_current_xact_id();

-- CreateIndex
CREATE INDEX "webhook_events_xid_seq_idx" ON "webhook_events"("xid", "seq");
