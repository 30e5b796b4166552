import type { SqlClient } from '../database.ts';
import { ENDPOINT_RECEIVES, NEW_EVENT_ID, envelope } from './outbox.ts';

/**
 * What an account does to its endpoint's deliveries: a test ping, a retry, a replay. Each queues deliveries
 * for the worker, which sends them within a poll, and returns at once.
 */

/** A `ping` event for one endpoint, whatever it subscribes to; the delivery's id. */
export async function queuePing(sql: SqlClient, endpointId: number, data: unknown): Promise<number> {
  const rows = await sql.query<{ id: number }>(
    `WITH event AS (
       INSERT INTO webhook_events (id, type, body, attributes)
       VALUES (${NEW_EVENT_ID}, 'ping', ${envelope(`'ping'`, '$2::jsonb')}, jsonb_build_object('endpoint_id', $1::int))
       RETURNING id)
     INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, $1 FROM event RETURNING id`,
    [endpointId, JSON.stringify(data)],
  );
  return rows[0]!.id;
}

// A delivery back in the queue: due now, with a fresh 24-hour retry window. One in flight (leased) is left to
// its attempt, whose result stands.
const REQUEUE = `status = 'pending', next_attempt_at = now(), first_attempt_at = NULL, locked_until = NULL`;

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
 * Every event since `since` that the endpoint receives by its subscriptions and filters today, queued again
 * (with its own id, so a receiver that has it already recognises it); pings are not replayed.
 */
export async function replayEvents(sql: SqlClient, endpointId: number, since: Date, limit: number): Promise<number> {
  const rows = await sql.query<{ queued: number }>(
    `WITH chosen AS (
       SELECT e.id FROM webhook_events e JOIN webhook_endpoints w ON w.id = $1 AND ${ENDPOINT_RECEIVES}
        WHERE e.created_at >= $2 ORDER BY e.created_at, e.id LIMIT $3),
     queued AS (
       INSERT INTO webhook_deliveries AS d (event_id, endpoint_id) SELECT id, $1 FROM chosen
       ON CONFLICT (event_id, endpoint_id) DO UPDATE SET ${REQUEUE}
        WHERE d.locked_until IS NULL OR d.locked_until <= now()
       RETURNING 1)
     SELECT count(*)::int AS queued FROM queued`,
    [endpointId, since.toISOString(), limit],
  );
  return rows[0]?.queued ?? 0;
}
