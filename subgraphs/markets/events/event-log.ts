import { EVENT_RETENTION_DAYS } from '../../platform/webhooks/worker.ts';
import { ApiError, BadRequestError } from '../../platform/errors.ts';
import type { SqlClient } from '../../platform/database.ts';
import { planReaches } from '../../platform/plans.ts';
import type { Plan } from '../../platform/plans.ts';
import { signalHistoryStart } from '../signal-history.ts';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/event-types.ts';
import type { WebhookEventType } from '../webhooks/event-types.ts';

/**
 * The event log read in order (GET /api/events, docs/events.md): the webhook outbox's `webhook_events`, written by
 * the same statement as each change, so the feed and the webhooks are one record of what happened.
 *
 * Order and cursors. An event's place is (the writing transaction's id, its sequence number). A reader takes only
 * events of transactions older than the oldest one still open on this database (HORIZON): any transaction that could
 * still commit has a larger id than every event read, so an event that commits late comes after the cursor, never
 * before it. (A plain sequence read while earlier transactions are open skips the rows they commit later.) The
 * price: an event becomes readable once every transaction older than its own has ended.
 */

/** The plan each kind of event needs: that of the data it carries (subgraphs/markets/plan-rules.ts). */
export const EVENT_TYPE_PLANS: Record<WebhookEventType, Plan> = {
  'signal.created': 'analyst',
  'congressional_trade.disclosed': 'analyst',
  'insider_trade.filed': 'analyst',
  'convergence_lead.changed': 'professional',
  'watchlist.activity': 'analyst',
  'briefing.published': 'analyst',
  'report.completed': 'professional',
  'report.failed': 'professional',
  'credits.low': 'analyst',
};

export interface EventCursor {
  xid: string;
  seq: string;
  /** When the event was written (ms): a cursor past retention is refused as gone. */
  at: number;
}

export const encodeEventCursor = (cursor: EventCursor) =>
  Buffer.from(`${cursor.xid}.${cursor.seq}.${cursor.at}`).toString('base64url');

/** A cursor the feed gave, or a 400; one whose event is past retention is a 410. */
export function decodeEventCursor(text: string, now = Date.now()): EventCursor {
  const match = /^(\d{1,20})\.(\d{1,20})\.(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw new BadRequestError({ starting_after: 'is not a cursor this feed gave' });
  const cursor = { xid: match[1]!, seq: match[2]!, at: Number(match[3]) };
  if (cursor.at < now - EVENT_RETENTION_DAYS * 86_400_000) {
    throw new ApiError(
      'cursor_expired',
      `This cursor is older than the ${EVENT_RETENTION_DAYS} days events are kept: sync again from the start (no starting_after).`,
    );
  }
  return cursor;
}

/** Who reads and which events: the filters of the feed and of a subscription. */
export interface EventFilter {
  /** The kinds asked for; all the plan reaches when none is given. */
  types?: readonly string[];
  /** Events about one of these tickers (none: any). */
  tickers?: readonly string[];
  /** Congressional trades of one of these members, by bioguide id or the name the event carries, any case. */
  members?: readonly string[];
  plan: Plan;
  accountId: string;
}

export interface EventQuery extends EventFilter {
  after?: EventCursor;
  limit: number;
}

/** An event's place in the log: its transaction's id, then its order within that transaction. */
export interface EventPosition {
  xid: bigint;
  seq: bigint;
}

export const isAfter = (a: EventPosition, b: EventPosition) => a.xid > b.xid || (a.xid === b.xid && a.seq > b.seq);

export interface LoggedEvent {
  id: string;
  type: string;
  /** The webhook body: `{type, timestamp, data}`. */
  body: string;
  cursor: string;
  position: EventPosition;
}

/** An event as the tail reads it for every open stream (event-tail.ts): with the attributes filters match on. */
export interface TailEvent extends LoggedEvent {
  attributes: Record<string, unknown>;
}

interface EventRow {
  id: string;
  type: string;
  body: string;
  xid: string;
  seq: string;
  at: number;
  attributes?: Record<string, unknown>;
}

const loggedEvent = (row: EventRow): LoggedEvent => ({
  id: row.id,
  type: row.type,
  body: row.body,
  cursor: encodeEventCursor({ xid: row.xid, seq: row.seq, at: Number(row.at) }),
  position: { xid: BigInt(row.xid), seq: BigInt(row.seq) },
});

const EVENT_COLUMNS = `e.id, e.type, e.body, e.xid::text AS xid, e.seq::text AS seq,
            (extract(epoch FROM e.created_at) * 1000)::bigint::float8 AS at`;
/**
 * Only events of transactions older than every one still open on this database (see the top of this file): the
 * oldest transaction id the statement's snapshot sees in progress, leaving out those that pg_stat_activity names
 * as another database's (the sandbox's, another tenant's), whose rows can never enter this log. A transaction
 * that ended between the snapshot and that read is not left out: the horizon is then lower, never higher, than
 * it could be. Snapshot ids are 64-bit (`xid8`), pg_stat_activity's 32-bit: compared on the low 32 bits.
 */
const HORIZON = `coalesce(
  (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) x
    WHERE (x::text::numeric % 4294967296)::text::xid NOT IN (
      SELECT a.backend_xid FROM pg_stat_activity a
       WHERE a.backend_xid IS NOT NULL AND a.datname IS DISTINCT FROM current_database())),
  pg_snapshot_xmax(pg_current_snapshot()))`;
const SETTLED = `e.xid < ${HORIZON}`;

/** The kinds a caller may read: those asked for (each within the plan, or a 403), else all the plan reaches. */
export function readableTypes(plan: Plan, asked: readonly string[] | undefined): string[] {
  if (!asked?.length) return WEBHOOK_EVENT_TYPES.filter((type) => planReaches(plan, EVENT_TYPE_PLANS[type]));
  const unknown = asked.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length) {
    throw new BadRequestError({
      types: `has no event type ${unknown.join(', ')}; the types are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    });
  }
  for (const type of asked as WebhookEventType[]) {
    if (!planReaches(plan, EVENT_TYPE_PLANS[type])) {
      throw new ApiError(
        'plan_required',
        `${type} events require the ${EVENT_TYPE_PLANS[type]} plan or higher; your plan is ${plan}.`,
        {
          redirect: '/billing',
        },
      );
    }
  }
  return [...asked];
}

/** One page of the log after the cursor, oldest first, and whether more follow. */
export async function readEvents(
  sql: SqlClient,
  query: EventQuery,
): Promise<{ events: LoggedEvent[]; hasMore: boolean }> {
  const signalsFrom = signalHistoryStart(query.plan);
  // The same rule as `eventMatches`, for the live streams.
  const rows = await sql.query<EventRow>(
    `SELECT ${EVENT_COLUMNS}
       FROM webhook_events e
      WHERE ${SETTLED}
        AND ($1::text IS NULL OR (e.xid, e.seq) > ($1::text::xid8, $2::bigint))
        AND e.type = ANY ($3::text[])
        AND (NOT (e.attributes ? 'account_id') OR e.attributes->>'account_id' = $4)
        AND ($5::text[] IS NULL OR e.attributes->>'ticker' = ANY ($5::text[]))
        AND ($6::text[] IS NULL OR EXISTS (SELECT 1 FROM unnest($6::text[]) m(name)
                                            WHERE m.name IN (lower(e.attributes->>'member'), lower(e.attributes->>'member_name'))))
        AND (e.type <> 'signal.created' OR $7::timestamptz IS NULL OR e.created_at >= $7::timestamptz)
      ORDER BY e.xid, e.seq
      LIMIT $8`,
    [
      query.after?.xid ?? null,
      query.after?.seq ?? null,
      readableTypes(query.plan, query.types),
      query.accountId,
      query.tickers?.length ? query.tickers : null,
      query.members?.length ? query.members.map((member) => member.toLowerCase()) : null,
      signalsFrom?.toISOString() ?? null,
      query.limit + 1,
    ],
  );
  return { events: rows.slice(0, query.limit).map(loggedEvent), hasMore: rows.length > query.limit };
}

/**
 * Whether `event` is one `filter` reads: `readEvents`' WHERE clause for an event the tail already holds (a live
 * stream). `types` is the list `readableTypes` gave. A live event is new, so the plans' signal history admits it.
 */
export function eventMatches(filter: EventFilter & { types: readonly string[] }, event: TailEvent): boolean {
  const attribute = (name: string) => {
    const value = event.attributes[name];
    return typeof value === 'string' ? value : undefined;
  };
  const owner = attribute('account_id');
  const ticker = attribute('ticker');
  const names = [attribute('member'), attribute('member_name')].map((name) => name?.toLowerCase());
  return (
    filter.types.includes(event.type) &&
    (owner === undefined || owner === filter.accountId) &&
    (!filter.tickers?.length || (ticker !== undefined && filter.tickers.includes(ticker))) &&
    (!filter.members?.length || filter.members.some((member) => names.includes(member.toLowerCase())))
  );
}

/** The last settled event's place: where a tail that starts now begins (nothing before it is new). */
export async function logEnd(sql: SqlClient): Promise<EventPosition> {
  const [row] = await sql.query<{ xid: string; seq: string }>(
    `SELECT e.xid::text AS xid, e.seq::text AS seq FROM webhook_events e WHERE ${SETTLED}
      ORDER BY e.xid DESC, e.seq DESC LIMIT 1`,
  );
  return row ? { xid: BigInt(row.xid), seq: BigInt(row.seq) } : { xid: 0n, seq: 0n };
}

/**
 * Every settled event after `after`, of every kind and account, oldest first: the tail's read. `unsettled`: whether
 * the log also holds events after them that are not readable yet (an older transaction is still open).
 */
export async function readTail(
  sql: SqlClient,
  after: EventPosition,
  limit: number,
): Promise<{ events: TailEvent[]; unsettled: boolean }> {
  const rows = await sql.query<EventRow & { unsettled: boolean }>(
    `WITH horizon AS (SELECT ${HORIZON} AS xid),
     settled AS (
       SELECT ${EVENT_COLUMNS}, e.attributes
         FROM webhook_events e
        WHERE e.xid < (SELECT xid FROM horizon) AND (e.xid, e.seq) > ($1::text::xid8, $2::bigint)
        ORDER BY e.xid, e.seq
        LIMIT $3)
     SELECT s.*, false AS unsettled FROM settled s
     UNION ALL
     SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, true
      WHERE EXISTS (SELECT 1 FROM webhook_events e WHERE e.xid >= (SELECT xid FROM horizon))`,
    [after.xid.toString(), after.seq.toString(), limit],
  );
  const settled = rows.filter((row) => !row.unsettled);
  return {
    events: settled.map((row) => ({ ...loggedEvent(row), attributes: row.attributes ?? {} })),
    unsettled: settled.length < rows.length,
  };
}
