import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { once } from 'node:events';
import type { Database, SqlClient } from '../database.ts';
import { logger } from '../logger.ts';
import { nextAttemptAt, retryAfterMs } from './backoff.ts';
import { DestinationRefused, resolveDestination } from './destination.ts';
import { endpointTakes } from './endpoint-standing.ts';
import { signDelivery } from './signing.ts';

/**
 * The delivery queue (docs/webhooks.md "Delivery that loses nothing"): `webhook_deliveries` rows, claimed with
 * `FOR UPDATE SKIP LOCKED` and leased, so workers in several processes never attempt one delivery at once and a
 * worker killed mid-attempt gives it back when the lease ends. Every write after the claim names the attempt,
 * so a worker whose lease ran out changes nothing.
 */
export interface ClaimedDelivery {
  id: number;
  attempt: number;
  eventId: string;
  endpointId: number;
  url: string;
  body: string;
  /** The secrets that sign this attempt: the endpoint's, and its previous one within 24 hours of a rotation. */
  secrets: string[];
  firstAttemptAt: Date;
}

export interface AttemptResult {
  delivered: boolean;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  /** What a 429 or 503 asked for in `Retry-After`. */
  retryAfterMs?: number;
}

export interface AttemptOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
}

const TIMEOUT_MS = 10_000;
/** The largest body sent: events carry one record, so a larger one is a fault, not a payload to push. */
const REQUEST_BYTES = 256 * 1024;
const RESPONSE_BYTES = 64 * 1024;
/** Attempts an endpoint gets per second at most, so a replay or a burst to one endpoint cannot take the worker. */
export const ATTEMPTS_PER_ENDPOINT_PER_SECOND = 10;
/** Three days of failures, from the first since the last success, disable an endpoint. */
const DISABLE_AFTER = '3 days';

/**
 * Each endpoint's first due delivery that it takes now (an unverified endpoint's verification ping, not the
 * events waiting behind it), for the endpoints with no attempt in flight and fewer than $3 attempts in the last
 * second: one per endpoint per claim, so a slow endpoint holds one worker slot and a burst waits.
 */
const FIRST_DUE_OF_FREE_ENDPOINTS = `SELECT first_due.id
    FROM webhook_endpoints w
   CROSS JOIN LATERAL (SELECT d.id FROM webhook_deliveries d
                        WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                          AND ${endpointTakes('w', 'd')}
                        ORDER BY d.next_attempt_at, d.id LIMIT 1) first_due
   WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries busy WHERE busy.endpoint_id = w.id AND busy.locked_until > now())
     AND (SELECT count(*) FROM webhook_deliveries recent
           WHERE recent.endpoint_id = w.id AND recent.last_attempt_at > now() - interval '1 second') < $3`;

/**
 * Claims up to `limit` due deliveries, at most one per endpoint and none for an endpoint with an attempt in
 * flight or past its rate (its deliveries wait for a later claim). Claims take turns (a transaction-scoped
 * advisory lock), so two processes never both see an endpoint free and each send it one.
 */
export async function claimDeliveries(
  db: Pick<Database, 'servingTransaction'>,
  limit: number,
  leaseMs: number,
  perEndpointPerSecond = ATTEMPTS_PER_ENDPOINT_PER_SECOND,
): Promise<ClaimedDelivery[]> {
  const rows = await db.servingTransaction(async (sql) => {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('webhook_deliveries:claim'))::text`);
    return sql.query<{
      id: number;
      attempts: number;
      event_id: string;
      endpoint_id: number;
      url: string;
      body: string;
      secret: string;
      previous_secret: string | null;
      first_attempt_at: Date;
    }>(
      `WITH claimed AS (
       UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, locked_until = now() + make_interval(secs => $2::float8 / 1000),
              first_attempt_at = coalesce(d.first_attempt_at, now()), last_attempt_at = now()
         FROM (SELECT d2.id FROM webhook_deliveries d2
                 JOIN webhook_endpoints w2 ON w2.id = d2.endpoint_id AND ${endpointTakes('w2', 'd2')}
                WHERE d2.status = 'pending' AND d2.next_attempt_at <= now()
                  AND (d2.locked_until IS NULL OR d2.locked_until <= now())
                  AND d2.id IN (${FIRST_DUE_OF_FREE_ENDPOINTS})
                ORDER BY d2.next_attempt_at, d2.id
                LIMIT $1
                  FOR UPDATE OF d2 SKIP LOCKED) due
        WHERE d.id = due.id
    RETURNING d.id, d.attempts, d.event_id, d.endpoint_id, d.first_attempt_at)
     SELECT c.*, e.body, w.url, w.secret,
            CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS previous_secret
       FROM claimed c
       JOIN webhook_events e ON e.id = c.event_id
       JOIN webhook_endpoints w ON w.id = c.endpoint_id`,
      [limit, leaseMs, perEndpointPerSecond],
    );
  });
  return rows.map((row) => ({
    id: row.id,
    attempt: row.attempts,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    url: row.url,
    body: row.body,
    secrets: row.previous_secret ? [row.secret, row.previous_secret] : [row.secret],
    firstAttemptAt: new Date(row.first_attempt_at),
  }));
}

/**
 * One POST: the destination checked again (its addresses then used, not looked up twice), signed, no redirect
 * followed and at most 64 KB of the answer read, all within one deadline (`timeoutMs` from the start: look-up,
 * connection, headers and body together, so a receiver that drips bytes is cut off). 2xx is delivered.
 */
export async function attemptDelivery(delivery: ClaimedDelivery, options: AttemptOptions): Promise<AttemptResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const late = (statusCode?: number): AttemptResult => ({
    delivered: false,
    statusCode,
    latencyMs: elapsed(),
    error: `no complete answer within ${timeoutMs} ms`,
  });
  if (Buffer.byteLength(delivery.body) > REQUEST_BYTES) {
    return { delivered: false, latencyMs: 0, error: `refused: the event is over ${REQUEST_BYTES / 1024} KB` };
  }
  let destination;
  try {
    destination = await Promise.race([
      resolveDestination(delivery.url, options.allowPrivate),
      once(deadline, 'abort').then(() => undefined),
    ]);
  } catch (error) {
    if (!(error instanceof DestinationRefused)) throw error;
    return { delivered: false, latencyMs: elapsed(), error: `refused: ${error.message}` };
  }
  if (!destination) return late();
  const headers = {
    ...signDelivery(delivery.secrets, delivery.eventId, delivery.body, new Date()),
    'content-type': 'application/json',
    'user-agent': 'data-graph-webhooks/1',
  };
  const [address] = destination.addresses;
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: address!, family: isIP(address!) }]);
    else callback(null, address!, isIP(address!));
  };
  const request = destination.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let statusCode: number | undefined;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      outgoing.destroy();
      resolve(deadline.aborted ? late(statusCode) : result);
    };
    const outgoing = request(
      destination.url,
      { method: 'POST', headers, lookup: pinned, signal: deadline },
      (response) => {
        const status = response.statusCode ?? 0;
        statusCode = status;
        const delivered = status >= 200 && status < 300;
        const answered = () =>
          settle({
            delivered,
            statusCode: status,
            latencyMs: elapsed(),
            retryAfterMs:
              status === 429 || status === 503
                ? retryAfterMs(response.headers['retry-after'] ?? null, new Date())
                : undefined,
            error: delivered ? undefined : `HTTP ${status}`,
          });
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_BYTES) answered();
        });
        // Ended, cut off by the receiver or by the deadline: settle() tells the last apart.
        response.on('end', answered);
        response.on('close', answered);
        response.on('error', answered);
      },
    );
    outgoing.on('error', (error) => settle({ delivered: false, latencyMs: elapsed(), error: error.message }));
    outgoing.end(delivery.body);
  });
}

/**
 * Writes what an attempt did: delivered, or the next attempt on the retry schedule (failed once it is spent);
 * the endpoint's run of failures starts or ends with it, and three days of failures disable the endpoint.
 * Returns false when the attempt had lost its lease (another worker owns the delivery now).
 */
export async function recordAttempt(
  sql: SqlClient,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  now = new Date(),
): Promise<boolean> {
  const next = result.delivered
    ? undefined
    : nextAttemptAt(delivery.attempt, delivery.firstAttemptAt, now, { retryAfterMs: result.retryAfterMs });
  const status = result.delivered ? 'delivered' : next ? 'pending' : 'failed';
  const updated = await sql.query(
    `UPDATE webhook_deliveries
        SET status = $3, next_attempt_at = $4, locked_until = NULL, last_status_code = $5, last_latency_ms = $6,
            last_error = $7, delivered_at = CASE WHEN $3 = 'delivered' THEN now() END
      WHERE id = $1 AND attempts = $2
    RETURNING id`,
    [
      delivery.id,
      delivery.attempt,
      status,
      next?.toISOString() ?? null,
      result.statusCode ?? null,
      result.latencyMs,
      result.error?.slice(0, 500) ?? null,
    ],
  );
  if (updated.length === 0) return false;
  const [endpoint] = await sql.query<{ disabled_reason: string | null; enabled: boolean }>(
    result.delivered
      ? `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`
      : `UPDATE webhook_endpoints
            SET failing_since = coalesce(failing_since, now()),
                enabled = enabled AND coalesce(failing_since, now()) > now() - interval '${DISABLE_AFTER}',
                disabled_reason = CASE WHEN enabled AND coalesce(failing_since, now()) <= now() - interval '${DISABLE_AFTER}'
                                       THEN 'every delivery failed for ${DISABLE_AFTER}' ELSE disabled_reason END
          WHERE id = $1
      RETURNING enabled, disabled_reason`,
    [delivery.endpointId],
  );
  if (endpoint && !endpoint.enabled && endpoint.disabled_reason && !result.delivered) {
    logger.warn({ endpoint: delivery.endpointId, reason: endpoint.disabled_reason }, 'webhook endpoint disabled');
  }
  return true;
}
