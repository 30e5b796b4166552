import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import { liveUsage, readUsage, recordCall, utcDay } from './usage.ts';
import type { Usage } from './usage.ts';

/**
 * Counts calls. Sandbox keys go through `recordCall`'s single conditional statement, so their trial can never
 * be exceeded, whatever the number of processes. Live calls (and session calls) are counted in this process's
 * memory and written in one batched statement per table every `flushIntervalMs`, on `flush()` and on
 * `close()`: N calls in a second cost one write instead of N writes serialised on the key's row. What this
 * process reports is the stored count (as read at first sight, returned by each flush, and re-read by each
 * flush for the accounts idle since the last one) plus its own counts not yet written, so a caller's numbers
 * stay exact; another process's calls appear once that process has flushed and this one has flushed. A counter
 * idle for `IDLE_COUNTER_MS` is forgotten, so only an account's first call after that reads its count in the
 * request: an account calling every few seconds costs no read per call (the bench's accounts, one per request,
 * each read their count on every call before). A killed process loses at most one interval of live counts.
 */
export interface UsageMeter {
  /** Counts one call and returns the caller's usage, this call included (403 when sandbox credits are spent). */
  record(viewer: Viewer, now?: Date): Promise<Usage>;
  /** The caller's usage without counting a call. */
  read(viewer: Viewer, now?: Date): Promise<Usage>;
  /** Writes every count not yet written (one statement per table); flushes run one after another. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
  /** Live calls counted but not yet written, and since when the oldest of them waits (for /metrics). */
  backlog(): { calls: number; oldestSince: number | undefined };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's usage meter (tools and tests flush it to read usage_counters directly). */
    usageMeter: UsageMeter;
  }
}

export interface UsageMeterOptions {
  sandboxCredits: number;
  /** How often counts are written (default 1,000 ms). */
  flushIntervalMs?: number;
  /** Called once per sandbox key, by the call that leaves it under 10 % of its credits (the credits.low webhook). */
  onCreditsLow?: (viewer: Viewer, usage: Usage) => Promise<void>;
}

/** Whether this call took the key's remaining credits under a tenth: exactly one call of a key's trial does. */
export function crossedLowCredits(usage: Usage): boolean {
  const threshold = usage.allowance / 10;
  return usage.remaining < threshold && usage.remaining + 1 >= threshold;
}

/** Calls of one account, mode and UTC day: stored in usage_counters, plus this process's share not yet stored. */
interface DayCounter {
  accountId: string;
  mode: Viewer['mode'];
  day: string;
  /** usage_counters.calls as last read or returned by a flush; undefined until read. */
  stored: number | undefined;
  loading: Promise<void> | undefined;
  /** Counted here, not yet sent. */
  pending: number;
  /** Sent in the flush under way; added to `stored` when it commits, back to `pending` if it fails. */
  inFlight: number;
  /** When a call last used it (Date.now()): see IDLE_COUNTER_MS. */
  usedAt: number;
}

/** Calls of one live key not yet added to api_keys.calls_used, and its latest use. */
interface KeyCounter {
  keyId: string;
  pending: number;
  inFlight: number;
  lastUsedAt: Date;
}

/**
 * How long a day counter nobody uses stays in memory (its stored count refreshed by every flush, in one batched
 * read) before it is dropped and the account's next call reads its count again.
 */
const IDLE_COUNTER_MS = 30_000;

function dayKey(accountId: string, mode: string, day: string): string {
  return `${accountId}|${mode}|${day}`;
}

export function createUsageMeter(control: Database, options: UsageMeterOptions): UsageMeter {
  const days = new Map<string, DayCounter>();
  const keys = new Map<string, KeyCounter>();
  /** When the oldest count not yet sent by a flush was made (Date.now()); undefined when none waits. */
  let oldestPendingSince: number | undefined;

  const dayCounter = (viewer: Viewer, day: string): DayCounter => {
    const id = dayKey(viewer.accountId, viewer.mode, day);
    let counter = days.get(id);
    if (!counter) {
      counter = {
        accountId: viewer.accountId,
        mode: viewer.mode,
        day,
        stored: undefined,
        loading: undefined,
        pending: 0,
        inFlight: 0,
        usedAt: Date.now(),
      };
      days.set(id, counter);
    }
    counter.usedAt = Date.now();
    return counter;
  };

  const load = async (counter: DayCounter) => {
    try {
      const [row] = await control.sql.query<{ calls: number }>(
        'SELECT calls FROM usage_counters WHERE account_id = $1::uuid AND mode = $2 AND day = $3::date',
        [counter.accountId, counter.mode, counter.day],
      );
      counter.stored = Number(row?.calls ?? 0);
    } finally {
      counter.loading = undefined;
    }
  };

  /** The counter of the viewer's day with its stored count known (concurrent first calls share one read). */
  const readyCounter = async (viewer: Viewer, day: string): Promise<DayCounter> => {
    for (;;) {
      const counter = dayCounter(viewer, day);
      if (counter.stored !== undefined) return counter;
      await (counter.loading ??= load(counter));
      // Loop: a flush may have dropped the counter meanwhile; the map's current one is the one to count on.
    }
  };

  const total = (counter: DayCounter) => counter.stored! + counter.inFlight + counter.pending;
  const exact = (viewer: Viewer) => viewer.mode === 'sandbox' && viewer.keyId !== undefined;

  async function record(viewer: Viewer, now = new Date()): Promise<Usage> {
    if (exact(viewer)) {
      const usage = await recordCall(control, viewer, options.sandboxCredits, now);
      if (options.onCreditsLow && crossedLowCredits(usage)) {
        // The call is counted whatever becomes of the notice: a failed notice is logged, not the caller's error.
        await options.onCreditsLow(viewer, usage).catch((error: unknown) => {
          logger.error({ err: error, key: viewer.keyId }, 'could not publish credits.low');
        });
      }
      return usage;
    }
    const day = utcDay(now);
    const counter = await readyCounter(viewer, day);
    // From here to the return nothing awaits, so this call's number is its own.
    counter.pending += 1;
    oldestPendingSince ??= Date.now();
    if (viewer.keyId) {
      const key = keys.get(viewer.keyId) ?? { keyId: viewer.keyId, pending: 0, inFlight: 0, lastUsedAt: now };
      key.pending += 1;
      if (now > key.lastUsedAt) key.lastUsedAt = now;
      keys.set(viewer.keyId, key);
    }
    return liveUsage(total(counter), viewer, day);
  }

  async function read(viewer: Viewer, now = new Date()): Promise<Usage> {
    if (exact(viewer)) return readUsage(control, viewer, options.sandboxCredits, now);
    const day = utcDay(now);
    return liveUsage(total(await readyCounter(viewer, day)), viewer, day);
  }

  async function writeDays(batch: DayCounter[]) {
    if (batch.length === 0) return;
    const rows = await control.sql.query<{ account_id: string; mode: string; day: string; calls: number }>(
      `INSERT INTO usage_counters (account_id, mode, day, calls)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::date[], $4::int[])
       ON CONFLICT (account_id, mode, day) DO UPDATE SET calls = usage_counters.calls + EXCLUDED.calls
       RETURNING account_id, mode, to_char(day, 'YYYY-MM-DD') AS day, calls`,
      [batch.map((c) => c.accountId), batch.map((c) => c.mode), batch.map((c) => c.day), batch.map((c) => c.inFlight)],
    );
    const stored = new Map(rows.map((row) => [dayKey(row.account_id, row.mode, row.day), Number(row.calls)]));
    for (const counter of batch) {
      // The returned count includes every process's flushed calls, this batch's among them.
      counter.stored =
        stored.get(dayKey(counter.accountId, counter.mode, counter.day)) ?? counter.stored! + counter.inFlight;
      counter.inFlight = 0;
    }
  }

  /** Re-reads the stored counts of counters with nothing to write, so other processes' calls show in a flush. */
  async function refreshDays(batch: DayCounter[]) {
    if (batch.length === 0) return;
    const rows = await control.sql.query<{ account_id: string; mode: string; day: string; calls: number }>(
      `SELECT u.account_id, u.mode, to_char(u.day, 'YYYY-MM-DD') AS day, u.calls
       FROM usage_counters u
       JOIN unnest($1::uuid[], $2::text[], $3::date[]) AS d(account_id, mode, day)
         ON u.account_id = d.account_id AND u.mode = d.mode AND u.day = d.day`,
      [batch.map((c) => c.accountId), batch.map((c) => c.mode), batch.map((c) => c.day)],
    );
    for (const row of rows) {
      const counter = days.get(dayKey(row.account_id, row.mode, row.day));
      if (counter && counter.inFlight === 0) counter.stored = Number(row.calls);
    }
  }

  async function writeKeys(batch: KeyCounter[]) {
    if (batch.length === 0) return;
    await control.sql.query(
      `UPDATE api_keys AS k
       SET calls_used = k.calls_used + d.calls, last_used_at = GREATEST(k.last_used_at, d.last_used_at)
       FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS d(id, calls, last_used_at)
       WHERE k.id = d.id`,
      [batch.map((k) => k.keyId), batch.map((k) => k.inFlight), batch.map((k) => k.lastUsedAt.toISOString())],
    );
    for (const key of batch) key.inFlight = 0;
  }

  /** Moves pending counts in flight; a failed write puts them back for the next flush. */
  async function send<C extends { pending: number; inFlight: number }>(
    batch: C[],
    write: (batch: C[]) => Promise<void>,
  ) {
    for (const counter of batch) {
      counter.inFlight = counter.pending;
      counter.pending = 0;
    }
    try {
      await write(batch);
    } catch (error) {
      for (const counter of batch) {
        counter.pending += counter.inFlight;
        counter.inFlight = 0;
      }
      throw error;
    }
  }

  async function flushOnce() {
    // Sorted, so concurrent flushes of several processes lock rows in one order.
    const dayBatch = [...days.entries()]
      .filter(([, c]) => c.pending > 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, c]) => c);
    const keyBatch = [...keys.values()].filter((k) => k.pending > 0).sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
    const idleBatch = [...days.values()].filter((c) => c.pending === 0 && c.stored !== undefined);
    const sentSince = oldestPendingSince;
    oldestPendingSince = undefined;
    const [refreshed, ...results] = await Promise.allSettled([
      refreshDays(idleBatch),
      send(dayBatch, writeDays),
      send(keyBatch, writeKeys),
    ]);
    // A failed re-read leaves the counts as they were (this process's own calls are still all in them).
    if (refreshed.status === 'rejected') logger.warn({ err: refreshed.reason }, 'usage counts not re-read');
    if (results.some((result) => result.status === 'rejected') && sentSince !== undefined) {
      oldestPendingSince = Math.min(sentSince, oldestPendingSince ?? sentSince);
    }
    const now = Date.now();
    for (const [id, counter] of days) {
      const idle = now - counter.usedAt > IDLE_COUNTER_MS;
      if (idle && counter.pending === 0 && counter.inFlight === 0 && counter.stored !== undefined) days.delete(id);
    }
    for (const [id, key] of keys) if (key.pending === 0 && key.inFlight === 0) keys.delete(id);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  let chain: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    const next = chain.then(flushOnce);
    chain = next.catch(() => undefined);
    return next;
  }

  const timer = setInterval(() => {
    flush().catch((error: unknown) => logger.error({ err: error }, 'usage flush failed; counts kept for the next one'));
  }, options.flushIntervalMs ?? 1_000);
  timer.unref();

  return {
    record,
    read,
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
    backlog() {
      let calls = 0;
      for (const counter of days.values()) calls += counter.pending + counter.inFlight;
      return { calls, oldestSince: oldestPendingSince };
    },
  };
}
