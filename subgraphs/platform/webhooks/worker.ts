import { env } from '../config.ts';
import type { FastifyInstance } from 'fastify';
import type { Database, Mode } from '../database.ts';
import { logger } from '../logger.ts';
import { runWhileListening } from '../process/while-listening.ts';
import type { BackgroundWorker } from '../process/while-listening.ts';
import { attemptDelivery, claimDeliveries, recordAttempt } from './deliveries.ts';
import type { ClaimedDelivery } from './deliveries.ts';

export interface WebhookWorkerOptions {
  databases: Record<Mode, Database>;
  /** WEBHOOK_ALLOW_PRIVATE: plain http and private addresses (local development and tests). */
  allowPrivate: boolean;
  /** How often an idle worker looks for due deliveries. */
  pollMs?: number;
  /** Deliveries attempted at once per database. */
  concurrency?: number;
  /** One deadline for each whole attempt (10 s unless given). */
  timeoutMs?: number;
  /**
   * Attempts an endpoint gets a second (ATTEMPTS_PER_ENDPOINT_PER_SECOND unless given): a test that sends one
   * endpoint hundreds of events raises it rather than wait at the production pace.
   */
  attemptsPerEndpointPerSecond?: number;
}

/**
 * Events are kept this many days (EVENT_RETENTION_DAYS) for replays and the feed (GET /api/events), then removed
 * with their deliveries once none is still pending.
 */
export const EVENT_RETENTION_DAYS = env.EVENT_RETENTION_DAYS;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * One loop per database: claim due deliveries, attempt them, record the results; sleep when none is due. Every
 * process runs one (embedded, several gateways, subgraphs as services): the lease in claimDeliveries keeps one
 * attempt of a delivery in flight, and a process killed mid-attempt gives it back when its lease ends.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): BackgroundWorker {
  const pollMs = options.pollMs ?? 1000;
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Longer than an attempt can take (its deadline and the write after it), so a live worker never loses its lease.
  const leaseMs = timeoutMs * 3 + 5_000;
  let running = true;
  const sleepers = new Set<() => void>();
  const sleep = () =>
    new Promise<void>((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        sleepers.delete(resume);
        resolve();
      };
      const timer = setTimeout(resume, pollMs);
      sleepers.add(resume);
    });

  const wake = () => sleepers.forEach((resume) => resume());

  async function deliver(db: Database, delivery: ClaimedDelivery) {
    try {
      const result = await attemptDelivery(delivery, { allowPrivate: options.allowPrivate, timeoutMs });
      const recorded = await recordAttempt(db.sql, delivery, result);
      if (!recorded) logger.warn({ delivery: delivery.id, database: db.mode }, 'webhook lease lost before recording');
    } catch (error) {
      // Unrecorded, the delivery comes back when its lease ends.
      logger.error({ err: error, delivery: delivery.id, database: db.mode }, 'webhook attempt could not be recorded');
    }
  }

  // Attempts run side by side, up to `concurrency`: a slot freed by one attempt is filled by the next claim at
  // once, so a slow receiver holds one slot (for one deadline at most), never the others.
  async function loop(db: Database) {
    let prunedAt = 0;
    const inFlight = new Set<Promise<void>>();
    let finished = 0;
    while (running) {
      let claimed = 0;
      const finishedBefore = finished;
      try {
        if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          await db.sql.query(
            `DELETE FROM webhook_events e WHERE e.created_at < now() - make_interval(days => ${EVENT_RETENTION_DAYS})
                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
          );
        }
        const free = concurrency - inFlight.size;
        const deliveries =
          free > 0 ? await claimDeliveries(db, free, leaseMs, options.attemptsPerEndpointPerSecond) : [];
        claimed = deliveries.length;
        for (const delivery of deliveries) {
          const attempt: Promise<void> = deliver(db, delivery).finally(() => {
            inFlight.delete(attempt);
            finished += 1;
            wake();
          });
          inFlight.add(attempt);
        }
      } catch (error) {
        // The database may be briefly unreachable; claimed deliveries come back when their lease ends.
        logger.error({ err: error, database: db.mode }, 'webhook worker could not deliver');
      }
      // Claim again at once while deliveries came or an attempt ended meanwhile (its endpoint may be free
      // again); otherwise wait for a free slot or the next poll.
      if (claimed === 0 && finished === finishedBefore && running) await sleep();
    }
    await Promise.all(inFlight);
  }

  const loops = Object.values(options.databases).map((db) => loop(db));
  return {
    async stop() {
      running = false;
      wake();
      await Promise.all(loops);
    },
  };
}

/** Runs the worker while the server listens (leases handed back on stop). */
export function attachWebhookWorker(app: FastifyInstance, options: WebhookWorkerOptions): void {
  runWhileListening(app, () => startWebhookWorker(options));
}
