-- The claim looks, per endpoint, for its first due delivery, an attempt in flight and the attempts of the last
-- second (docs/webhooks.md "Delivery that loses nothing"); last_attempt_at gains a time zone, as the other
-- times a claim compares with now() did. Stored values are UTC wall times, read as such.
ALTER TABLE "webhook_deliveries"
  ALTER COLUMN "last_attempt_at" SET DATA TYPE TIMESTAMPTZ(6) USING "last_attempt_at" AT TIME ZONE 'UTC';

CREATE INDEX "webhook_deliveries_endpoint_id_status_next_attempt_at_idx" ON "webhook_deliveries"("endpoint_id", "status", "next_attempt_at");

CREATE INDEX "webhook_deliveries_endpoint_id_locked_until_idx" ON "webhook_deliveries"("endpoint_id", "locked_until");

CREATE INDEX "webhook_deliveries_endpoint_id_last_attempt_at_idx" ON "webhook_deliveries"("endpoint_id", "last_attempt_at");
