import type { Database } from '../../platform/database.ts';
import { env } from '../../platform/config.ts';
import { logger } from '../../platform/logger.ts';
import { logEnd, readTail } from './event-log.ts';
import type { EventPosition, TailEvent } from './event-log.ts';

/** The channel the event_notices migration's trigger notifies on every insert into the log. */
export const EVENTS_APPENDED = 'events_appended';
/** Events read per statement while the tail catches up. */
const TAIL_BATCH = 500;
/** How soon the tail reads again when the log holds events an open transaction still holds back. */
const SETTLE_RETRY_MS = 50;

/** Receives each batch of new events, in log order; it must not block (it queues what it keeps). */
export type TailListener = (events: readonly TailEvent[]) => void;

export interface EventTail {
  /** Listens from the tail's current place: every event settled after it reaches `listener`, once. */
  attach(listener: TailListener): Promise<() => void>;
}

const tails = new WeakMap<Database, EventTail>();

/**
 * The one reader of a database's log in this process, for all of its open streams: however many subscribers, one
 * statement per wake-up reads what is new and hands it to each of them (event-stream.ts filters per subscriber).
 *
 * It reads when PostgreSQL announces an insert (NOTIFY at commit, from any process: the wake-up that makes a
 * subscriber on one gateway see an event written through another), and again SETTLE_RETRY_MS after a read that
 * found events an older open transaction still holds back (event-log.ts: that transaction's end sends no notice).
 * The poll every EVENT_TAIL_POLL_MS is the safety net for a lost notice or a listening connection being
 * re-established. With no listener attached it neither listens nor polls.
 */
export function eventTailOf(db: Database): EventTail {
  let tail = tails.get(db);
  if (!tail) {
    tail = createEventTail(db, env.EVENT_TAIL_POLL_MS);
    tails.set(db, tail);
  }
  return tail;
}

function createEventTail(db: Database, pollMs: number): EventTail {
  const listeners = new Set<TailListener>();
  let position: EventPosition | undefined;
  let starting: Promise<void> | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  /** Counts stops, so a start that was still under way when its last listener left undoes itself. */
  let generation = 0;

  /** Reads what is new; true when events wait behind an open transaction (read again soon). */
  async function readNew(): Promise<boolean> {
    for (;;) {
      const { events, unsettled } = await readTail(db.sql, position!, TAIL_BATCH);
      if (events.length && listeners.size && position) {
        position = events.at(-1)!.position;
        for (const listener of listeners) listener(events);
      }
      if (events.length < TAIL_BATCH || !listeners.size) return unsettled;
    }
  }

  /** One read at a time; a wake-up during a read asks for one more after it. */
  function wake() {
    if (!position || !listeners.size) return;
    if (reading) {
      readAgain = true;
      return;
    }
    reading = readNew()
      .then((unsettled) => {
        // The transaction holding them back ends without a notice of its own: look again shortly.
        if (unsettled) setTimeout(wake, SETTLE_RETRY_MS).unref();
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'event tail read failed; retrying on the next poll'))
      .finally(() => {
        reading = undefined;
        if (readAgain) {
          readAgain = false;
          wake();
        }
      });
  }

  async function start() {
    const started = generation;
    let unlisten: (() => Promise<void>) | undefined;
    try {
      unlisten = await db.listen(EVENTS_APPENDED, wake, (error) => {
        // The poll keeps the streams going; the next start listens again.
        logger.warn({ err: error }, 'event notices lost; the tail polls until its streams reopen');
        if (stopListening === unlisten) stopListening = undefined;
      });
    } catch (error) {
      logger.warn({ err: error }, 'cannot listen for event notices; the tail polls');
    }
    const end = await logEnd(db.sql).catch(async (error: unknown) => {
      await unlisten?.();
      throw error;
    });
    if (started !== generation) {
      await unlisten?.();
      return;
    }
    stopListening = unlisten;
    position = end;
    timer = setInterval(wake, pollMs);
    timer.unref();
  }

  function stop() {
    generation += 1;
    clearInterval(timer);
    timer = undefined;
    position = undefined;
    starting = undefined;
    void stopListening?.();
    stopListening = undefined;
  }

  return {
    async attach(listener) {
      listeners.add(listener);
      try {
        await (starting ??= start());
      } catch (error) {
        listeners.delete(listener);
        if (!listeners.size) stop();
        throw error;
      }
      return () => {
        if (listeners.delete(listener) && !listeners.size) stop();
      };
    },
  };
}
