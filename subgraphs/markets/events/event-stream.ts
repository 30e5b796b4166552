import { AsyncQueue } from '../../platform/async-queue.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Database } from '../../platform/database.ts';
import { env } from '../../platform/config.ts';
import { eventMatches, isAfter, readEvents, readableTypes } from './event-log.ts';
import type { EventCursor, EventFilter, EventPosition, LoggedEvent, TailEvent } from './event-log.ts';
import { eventTailOf } from './event-tail.ts';

/** Events read per statement while a stream replays from `since`. */
const REPLAY_PAGE = 100;

export interface EventStreamOptions extends EventFilter {
  /** Replay the log after this cursor, then go on live; without it, live from now. */
  since?: EventCursor;
  /** Events a stream may hold for a client that reads slower than they come (STREAM_BUFFER_EVENTS unless given). */
  maxBuffered?: number;
}

/** A stream ended because its client read too slowly: it resumes from the last cursor it received. */
export const slowConsumer = (limit: number) =>
  new ApiError(
    'stream_overflow',
    `More than ${limit} events waited for this stream: it was ended. Subscribe again with the last cursor you received to resume.`,
  );

/**
 * One subscriber's events, in log order, without a gap or a duplicate across the switch from replay to live.
 *
 * It attaches to the tail first and holds what arrives, then replays the log after `since` page by page, then
 * hands over what it held, skipping what the replay already gave (by position). The tail's events all come after
 * its place at attach time, and the replay reads at least to that place, so together they miss nothing. Plans
 * and filters are `readEvents`' rule, applied by the same predicate to live events (event-log.ts). A stream that
 * would hold more than `maxBuffered` events for its client ends with `stream_overflow` instead of growing.
 */
export function eventStream(db: Database, options: EventStreamOptions): AsyncQueue<LoggedEvent> {
  const filter = { ...options, types: readableTypes(options.plan, options.types) };
  const limit = options.maxBuffered ?? env.STREAM_BUFFER_EVENTS;
  const queue = new AsyncQueue<LoggedEvent>();
  let held: TailEvent[] | undefined = options.since ? [] : undefined;
  let last: EventPosition | undefined;

  const deliver = (event: LoggedEvent) => {
    if (last && !isAfter(event.position, last)) return;
    last = event.position;
    queue.push(event);
    if (queue.size > limit) queue.end(slowConsumer(limit));
  };
  const onEvents = (events: readonly TailEvent[]) => {
    for (const event of events) {
      if (!eventMatches(filter, event)) continue;
      if (!held) deliver(event);
      else if (held.push(event) > limit) queue.end(slowConsumer(limit));
    }
  };

  async function replay(since: EventCursor) {
    let after = since;
    for (;;) {
      const page = await readEvents(db.sql, { ...filter, after, limit: REPLAY_PAGE });
      for (const event of page.events) deliver(event);
      if (!page.hasMore || queue.closed) return;
      // The client's pace sets the replay's: the next page is read once this one is mostly taken.
      await queue.whenBelow(REPLAY_PAGE);
      const end = page.events.at(-1)!.position;
      after = { xid: end.xid.toString(), seq: end.seq.toString(), at: since.at };
    }
  }

  void (async () => {
    const detach = await eventTailOf(db).attach(onEvents);
    queue.onEnd(detach);
    if (options.since && !queue.closed) {
      await replay(options.since);
      const waiting = held ?? [];
      held = undefined;
      for (const event of waiting) deliver(event);
    }
  })().catch((error: unknown) => queue.end(error));
  return queue;
}
