-- An endpoint receives events only at a URL it has verified (docs/webhooks.md "Verification"): verified_url is
-- the URL whose signed `webhook.verification` ping was answered 2xx, so changing the URL unverifies it at once.
-- suspended_reason is set while the account's plan or standing excludes webhooks ("Plan changes"). A delivery's
-- purpose: an event, a replay's (an endpoint has at most one replay running) or the endpoint's verification.
ALTER TABLE "webhook_endpoints" ADD COLUMN "verified_url" TEXT,
  ADD COLUMN "verified_at" TIMESTAMP(3),
  ADD COLUMN "suspended_reason" TEXT;

ALTER TABLE "webhook_deliveries" ADD COLUMN "purpose" TEXT NOT NULL DEFAULT 'event';

-- A verification ping answered 2xx verifies the URL it was sent for, if the endpoint still has it. A trigger, so
-- whichever worker records the attempt (and however) the endpoint follows in the same transaction.
CREATE FUNCTION webhook_verification_delivered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE webhook_endpoints w SET verified_url = w.url, verified_at = now()
    FROM webhook_events e
   WHERE e.id = NEW.event_id AND w.id = NEW.endpoint_id AND w.url = e.attributes->>'url';
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_deliveries_verification_delivered
  AFTER UPDATE OF status ON webhook_deliveries
  FOR EACH ROW WHEN (NEW.purpose = 'verification' AND NEW.status = 'delivered' AND OLD.status <> 'delivered')
  EXECUTE FUNCTION webhook_verification_delivered();

-- Endpoints registered before verification existed are asked now, so a receiver answering 2xx keeps receiving.
WITH verification AS (
  INSERT INTO webhook_events (id, type, body, attributes)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'webhook.verification',
         jsonb_build_object('type', 'webhook.verification',
                            'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                            'data', jsonb_build_object('endpoint_id', 'wh_' || w.id, 'url', w.url))::text,
         jsonb_build_object('endpoint_id', w.id, 'url', w.url)
    FROM webhook_endpoints w
  RETURNING id, attributes)
INSERT INTO webhook_deliveries (event_id, endpoint_id, purpose)
SELECT id, (attributes->>'endpoint_id')::int, 'verification' FROM verification;
