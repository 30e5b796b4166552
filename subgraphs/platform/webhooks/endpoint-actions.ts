import type { Database, SqlClient } from '../database.ts';
import { VERIFICATION_EVENT } from './event-types.ts';
import { ENDPOINT_RECEIVES, NEW_EVENT_ID, envelope } from './outbox.ts';

/**
 * What an account does to its endpoint's deliveries: a test ping, a verification, a retry, a replay. Each queues
 * deliveries for the worker, which sends them within a poll, and returns at once.
 */

/** The most events one replay queues (docs/webhooks.md "Endpoints"): a wider window takes several calls. */
export const REPLAY_LIMIT = 1_000;

/** An event for one endpoint only, whatever it subscribes to; the delivery's id. */
async function queueEndpointEvent(
  sql: SqlClient,
  endpointId: number,
  type: string,
  data: unknown,
  attributes: Record<string, unknown> = {},
  purpose: 'event' | 'verification' = 'event',
): Promise<number> {
  const rows = await sql.query<{ id: number }>(
    `WITH event AS (
       INSERT INTO webhook_events (id, type, body, attributes)
       VALUES (${NEW_EVENT_ID}, $2, ${envelope('$2::text', '$3::jsonb')},
               $4::jsonb || jsonb_build_object('endpoint_id', $1::int))
       RETURNING id)
     INSERT INTO webhook_deliveries (event_id, endpoint_id, purpose) SELECT id, $1, $5 FROM event RETURNING id`,
    [endpointId, type, JSON.stringify(data), JSON.stringify(attributes), purpose],
  );
  return rows[0]!.id;
}

/** A `ping` event for one endpoint; the delivery's id. */
export function queuePing(sql: SqlClient, endpointId: number, data: unknown): Promise<number> {
  return queueEndpointEvent(sql, endpointId, 'ping', data);
}

// A delivery back in the queue: due now, with a fresh 24-hour retry window. One in flight (leased) is left to
// its attempt, whose result stands.
const REQUEUE = `status = 'pending', next_attempt_at = now(), first_attempt_at = NULL, locked_until = NULL`;

/**
 * Asks the endpoint to verify `url` (its URL now): its pending verification of that URL is due again now, or a
 * new one is queued. One pending verification per URL, so calling again never sends more than one ping at once.
 */
export async function queueVerification(
  sql: SqlClient,
  endpointId: number,
  url: string,
  data: unknown,
): Promise<number> {
  const [pending] = await sql.query<{ id: number }>(
    `WITH pending AS (
       SELECT d.id, d.locked_until FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.endpoint_id = $1 AND d.purpose = 'verification' AND d.status = 'pending'
          AND e.attributes->>'url' = $2
        ORDER BY d.id DESC LIMIT 1),
     requeued AS (
       UPDATE webhook_deliveries d SET ${REQUEUE} FROM pending p
        WHERE d.id = p.id AND (p.locked_until IS NULL OR p.locked_until <= now()))
     SELECT id FROM pending`,
    [endpointId, url],
  );
  return pending?.id ?? queueEndpointEvent(sql, endpointId, VERIFICATION_EVENT, data, { url }, 'verification');
}

/** Sends a delivery again (any status); false when the endpoint has no such delivery or it is being attempted. */
export async function retryDelivery(sql: SqlClient, endpointId: number, deliveryId: number): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE webhook_deliveries SET ${REQUEUE}
      WHERE id = $1 AND endpoint_id = $2 AND (locked_until IS NULL OR locked_until <= now())
     RETURNING id`,
    [deliveryId, endpointId],
  );
  return rows.length > 0;
}

/**
 * Every event since `since` that the endpoint receives by its subscriptions and filters today, at most
 * REPLAY_LIMIT, queued again (with its own id, so a receiver that has it already recognises it); pings are not
 * replayed. Undefined while an earlier replay of the endpoint still has deliveries pending: one runs at a time.
 */
export async function replayEvents(db: Database, endpointId: number, since: Date): Promise<number | undefined> {
  return db.transaction(async (sql) => {
    // Serialised per endpoint, so two replays at once cannot both find none running.
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-replay:' || $1::text))::text`, [endpointId]);
    const running = await sql.query(
      `SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND purpose = 'replay' AND status = 'pending' LIMIT 1`,
      [endpointId],
    );
    if (running.length > 0) return undefined;
    const rows = await sql.query<{ queued: number }>(
      `WITH chosen AS (
         SELECT e.id FROM webhook_events e JOIN webhook_endpoints w ON w.id = $1 AND ${ENDPOINT_RECEIVES}
          WHERE e.created_at >= $2 ORDER BY e.created_at, e.id LIMIT $3),
       queued AS (
         INSERT INTO webhook_deliveries AS d (event_id, endpoint_id, purpose) SELECT id, $1, 'replay' FROM chosen
         ON CONFLICT (event_id, endpoint_id) DO UPDATE SET ${REQUEUE}, purpose = 'replay'
          WHERE d.locked_until IS NULL OR d.locked_until <= now()
         RETURNING 1)
       SELECT count(*)::int AS queued FROM queued`,
      [endpointId, since.toISOString(), REPLAY_LIMIT],
    );
    return rows[0]?.queued ?? 0;
  });
}
