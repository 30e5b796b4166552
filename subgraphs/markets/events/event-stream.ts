import { AsyncQueue } from '../../platform/async-queue.ts';
import type { Database } from '../../platform/database.ts';
import { env } from '../../platform/config.ts';
import { eventMatches, isAfter, readEvents, readableTypes } from './event-log.ts';
import type { EventCursor, EventFilter, EventPosition, LoggedEvent, TailEvent } from './event-log.ts';
import { eventTailOf } from './event-tail.ts';

/** Events read per statement while a stream reads the log; the next page waits until the client took most of one. */
const READ_PAGE = 100;

export interface EventStreamOptions extends EventFilter {
  /** Replay the log after this cursor, then go on live; without it, live from now. */
  since?: EventCursor;
  /** Events a stream holds in memory at most (STREAM_BUFFER_EVENTS unless given); past it, it reads the log. */
  maxBuffered?: number;
}

const cursorAt = (position: EventPosition): EventCursor => ({
  xid: position.xid.toString(),
  seq: position.seq.toString(),
  at: Date.now(),
});

/**
 * One subscriber's events, in log order, without a gap or a duplicate, in bounded memory; resolves once it is
 * attached to the tail.
 *
 * Live, it takes the events the tail hands every stream (event-tail.ts) and keeps those its filter admits. When it
 * starts with `since`, or when its client falls `maxBuffered` events behind (an import that commits thousands of
 * trades at once), it reads the log instead, a page at a time as the client takes them, while it holds what the
 * tail brings meanwhile; at the end of the log it hands over what it held and is live again. What it delivers is
 * deduplicated by position, so the overlap between a read and the held events is given once. Should the held
 * events reach the bound too, they are dropped and the read goes on to the new end of the log: everything the tail
 * had brought until then is in the log by then. Plans and filters are `readEvents`' rule, applied by the same
 * predicate to live events (event-log.ts).
 */
export async function eventStream(db: Database, options: EventStreamOptions): Promise<AsyncQueue<LoggedEvent>> {
  const filter = { ...options, types: readableTypes(options.plan, options.types) };
  const limit = options.maxBuffered ?? env.STREAM_BUFFER_EVENTS;
  const queue = new AsyncQueue<LoggedEvent>();
  let last: EventPosition | undefined;
  /** Reading the log: what the tail brings meanwhile is held (undefined: live). */
  let held: TailEvent[] | undefined;
  let heldOverflowed = false;

  const deliver = (event: LoggedEvent) => {
    if (last && !isAfter(event.position, last)) return;
    last = event.position;
    queue.push(event);
  };

  /** Reads the log after `from` to its end, paced by the client, then hands over what was held meanwhile. */
  async function readLog(from: EventCursor) {
    let after = from;
    do {
      heldOverflowed = false;
      for (;;) {
        const page = await readEvents(db.sql, { ...filter, after, limit: READ_PAGE });
        for (const event of page.events) deliver(event);
        if (last) after = cursorAt(last);
        if (!page.hasMore || queue.closed) break;
        await queue.whenBelow(READ_PAGE);
      }
    } while (heldOverflowed && !queue.closed);
    const waiting = held ?? [];
    held = undefined;
    for (const event of waiting) deliver(event);
  }

  const startReading = (from: EventCursor) => {
    held ??= [];
    readLog(from).catch((error: unknown) => queue.end(error));
  };

  const onEvents = (events: readonly TailEvent[]) => {
    for (const event of events) {
      if (!eventMatches(filter, event)) continue;
      if (held) {
        if (held.length < limit) held.push(event);
        else {
          held = [];
          heldOverflowed = true;
        }
      } else if (queue.size < limit) deliver(event);
      // The client is `limit` behind: this event and those after it are read from the log.
      else startReading(cursorAt(last!));
    }
  };

  // With `since`, what the tail brings from the start is held until the read of the log has caught up.
  if (options.since) held = [];
  // Attached before the stream is handed back: "live from now" is every event after the subscription's answer.
  queue.onEnd(await eventTailOf(db).attach(onEvents));
  if (options.since) startReading(options.since);
  return queue;
}
