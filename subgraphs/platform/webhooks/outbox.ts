import type { SqlClient } from '../database.ts';
import { endpointActive } from './endpoint-standing.ts';
import type { WebhookEventInput } from './event-types.ts';

/**
 * The transactional outbox (docs/webhooks.md "Delivery that loses nothing"): events and their deliveries are
 * written by the same statement as the data change, as common table expressions after it, so a change that
 * commits has its events and one that rolls back has none. The worker (worker.ts) sends what is queued.
 */

/** An ISO 8601 UTC timestamp, as the API prints DateTime values (`2026-11-24T18:30:00.000Z`). */
export const isoTimestamp = (expression: string) =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const NEW_EVENT_ID = `'msg_' || replace(gen_random_uuid()::text, '-', '')`;

export const envelope = (type: string, data: string) =>
  `jsonb_build_object('type', ${type}, 'timestamp', ${isoTimestamp('now()')}, 'data', ${data})::text`;

/** A filter narrows the events carrying its attribute; an empty or absent filter lets everything through. */
const filterAllows = (filter: string, attribute: string) =>
  `(coalesce(jsonb_array_length(w.filters->'${filter}'), 0) = 0 OR NOT (e.attributes ? '${attribute}')
     OR (w.filters->'${filter}') ? (e.attributes->>'${attribute}'))`;

/** Whether endpoint `w` receives event `e`: active (endpoint-standing.ts), subscribed, the account's own when the event names one, filters met. */
export const ENDPOINT_RECEIVES = `${endpointActive('w')} AND e.type = ANY (w.events)
   AND (NOT (e.attributes ? 'account_id') OR e.attributes->>'account_id' = w.account_id)
   AND ${filterAllows('tickers', 'ticker')}
   AND ${filterAllows('signal_types', 'signal_type')}
   AND ${filterAllows('chambers', 'chamber')}
   AND (coalesce(jsonb_array_length(w.filters->'members'), 0) = 0 OR NOT (e.attributes ? 'member')
        OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(w.filters->'members') m(name)
                    WHERE lower(m.name) IN (lower(e.attributes->>'member'), lower(e.attributes->>'member_name'))))`;

/**
 * Events that published events give rise to, written by the same statement (the markets' `watchlist.activity`,
 * subgraphs/markets/webhooks/event-types.ts): a common table expression `name`, an INSERT into webhook_events
 * over the CTE `published` that returns `id, type, attributes`.
 */
export interface DerivedEvents {
  name: string;
  sql: string;
}

/**
 * The common table expressions that publish `source`: a SELECT of `(type text, data jsonb, attributes jsonb)`,
 * usually over the RETURNING rows of the change before it. They write each event, the events `derived` from
 * them, and a delivery per endpoint that receives one. Follow them with the statement's own final SELECT.
 */
export function publishingCtes(source: string, derived: readonly DerivedEvents[] = []): string {
  const written = ['published', ...derived.map(({ name }) => name)];
  return `source_events AS (${source}),
    published AS (
      INSERT INTO webhook_events (id, type, body, attributes)
      SELECT ${NEW_EVENT_ID}, s.type, ${envelope('s.type', 's.data')}, s.attributes FROM source_events s
      RETURNING id, type, body, attributes),${derived
        .map(
          ({ name, sql }) => `
    ${name} AS (
      ${sql}),`,
        )
        .join('')}
    queued AS (
      INSERT INTO webhook_deliveries (event_id, endpoint_id)
      SELECT e.id, w.id
        FROM (${written.map((name) => `SELECT id, type, attributes FROM ${name}`).join(' UNION ALL ')}) e
        JOIN webhook_endpoints w ON ${ENDPOINT_RECEIVES}
      RETURNING id)`;
}

/**
 * Events that are not a row change of their own (a `credits.low`), published in one statement with those
 * `derived` from them; their ids.
 */
export async function publishEvents(
  sql: SqlClient,
  events: readonly WebhookEventInput[],
  derived: readonly DerivedEvents[] = [],
): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `WITH ${publishingCtes(
      `SELECT x.type, x.data, x.attributes FROM jsonb_to_recordset($1::jsonb) AS x(type text, data jsonb, attributes jsonb)`,
      derived,
    )}
     SELECT id FROM published`,
    [JSON.stringify(events)],
  );
  return rows.map((row) => row.id);
}
