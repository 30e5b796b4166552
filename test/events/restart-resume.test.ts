import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { publishEvents } from '../../subgraphs/platform/webhooks/outbox.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import { startServiceProcess } from '../support/processes.ts';
import type { ServiceProcess } from '../support/processes.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabases } from '../support/databases.ts';
import { createKeyByCommand, runScript, serviceEnvironment, startChildServer } from '../support/child-process.ts';
import type { ChildServer } from '../support/child-process.ts';
import { resumingSseSubscriber } from '../support/event-streams.ts';
import { REAL_FILES } from '../import/real-data.ts';

/**
 * The issue's own check, on both engines, as an operator runs the service: `npm start`'s process, `npm run import`
 * of a real file (handed to the running server over its admin socket on PGlite), and a gateway restart under a
 * subscriber. The subscriber that stayed through both, resuming with Last-Event-ID, and a client that syncs by
 * GET /api/events from empty hold the same events: exactly the import's new trades.
 */
const TRADES = 'congressional_trade.disclosed';
const QUERY = `subscription { events(types: ["${TRADES}"]) { id } }`;

describe('a subscriber through an import and a gateway restart', () => {
  let store: TestDatabases;
  let env: NodeJS.ProcessEnv;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    store = await createTestDatabases({ sandboxScale: 0 });
    env = serviceEnvironment(store);
    server = await startChildServer(env);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await store?.drop();
  });

  it('holds exactly the import’s new trades, the same set as the feed synced from empty', async () => {
    const key = await createKeyByCommand(env);
    const subscriber = resumingSseSubscriber(key, QUERY);
    const first = await subscriber.open(server!.url);
    const imported = await runScript('scripts/import.ts', ['senate-trades', REAL_FILES.senateSlice], env);
    expect(imported.code, imported.stderr).toBe(0);
    // Part of the import's events, then the server restarts under the subscriber.
    expect(await subscriber.readUntil(first, 300)).toBe(true);
    await server!.stop();
    server = await startChildServer(env);

    const feed: string[] = [];
    let after = '';
    for (;;) {
      const page = await fetch(`${server.url}/api/events?types=${TRADES}&limit=100${after}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await page.json()) as { events: { id: string }[]; has_more: boolean; next_cursor: string };
      feed.push(...body.events.map((event) => event.id));
      if (!body.has_more) break;
      after = `&starting_after=${body.next_cursor}`;
    }
    expect(await subscriber.readUntil(await subscriber.open(server.url), feed.length)).toBe(true);
    expect(subscriber.received).toEqual(feed);

    // And the feed holds the import's new trades: one event for each trade the list now shows.
    const trades = await fetch(`${server.url}/api/congressional-trades?from=2000-01-01&limit=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const listed = (await trades.json()) as { total: number };
    expect(feed.length).toBeGreaterThan(1_000);
    expect(feed).toHaveLength(listed.total);
    expect(new Set(subscriber.received).size).toBe(subscriber.received.length);
  }, 300_000);
});

/**
 * Streams across OS processes: two gateways on one PostgreSQL and one Redis, events written by a third process
 * (this one), and a gateway killed with SIGKILL under its subscriber. Several processes on one database exist only
 * with PostgreSQL; on PGlite, the restart above covers the single process.
 */
const GATEWAY_READY = /Data graph ready at http:\/\/localhost:(\d+)/;
const EVENTS = 1_000;
const BATCH = 50;
const BRIEFINGS = `subscription { events(types: ["briefing.published"]) { id data } }`;

if (TEST_ENGINE === 'postgres') {
  describe('a subscriber across two gateways, one killed mid-stream', () => {
    let store: TestDatabases;
    let redis: TestRedis;
    const gateways: ServiceProcess[] = [];

    beforeAll(async () => {
      store = await createTestDatabases({ sandboxScale: 0 });
      redis = await startTestRedis();
      const env = {
        DATABASE_URL: store.urls.live!,
        SANDBOX_DATABASE_URL: store.urls.sandbox!,
        REDIS_URL: redis.url,
        JWT_SECRETS: randomBytes(32).toString('hex'),
        SANDBOX_SEED_SCALE: '10',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        // The tail's safety-net poll as slow as it may be: events arrive on PostgreSQL's notices, or not in time.
        EVENT_TAIL_POLL_MS: '60000',
      };
      for (const name of ['a', 'b']) {
        const dataDir = join(store.dataDir, name);
        gateways.push(await startServiceProcess('gateway/main.ts', [], { ...env, DATA_DIR: dataDir }, GATEWAY_READY));
      }
    });
    afterAll(async () => {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
      await redis?.stop();
      await store?.drop();
    });

    it('loses none of 1,000 events and doubles none when it resumes on the other gateway', async () => {
      const live = store.databases.live;
      const account = await createAccount(live, 'analyst');
      const { key } = await createApiKey(live, account.id, 'live');
      const subscriber = resumingSseSubscriber(key, BRIEFINGS);
      const { received } = subscriber;

      const [first, second] = gateways as [ServiceProcess, ServiceProcess];
      const stream = await subscriber.open(first.url);
      // Each batch is one transaction of this process; the gateways learn of it by NOTIFY.
      const writing = (async () => {
        for (let batch = 0; batch < EVENTS / BATCH; batch++) {
          const events = Array.from({ length: BATCH }, (_, index) => ({
            type: 'briefing.published',
            data: { date: '2026-12-01', n: batch * BATCH + index },
            attributes: {},
          }));
          await publishEvents(live.sql, events);
        }
      })();
      let killed: Promise<void> | undefined;
      await subscriber.readUntil(stream, EVENTS, () => {
        if (received.length === 300) killed = first.kill();
      });
      await killed;
      expect(received.length).toBeGreaterThanOrEqual(300);
      expect(received.length).toBeLessThan(EVENTS);

      // The client reconnects elsewhere with the last cursor it received, as an EventSource does.
      await subscriber.readUntil(await subscriber.open(second.url), EVENTS);
      await writing;
      const published = await live.sql.query<{ id: string }>(
        `SELECT id FROM webhook_events WHERE type = 'briefing.published' ORDER BY xid, seq`,
      );
      expect(received).toEqual(published.map((row) => row.id));
      expect(new Set(received).size).toBe(EVENTS);
    });
  });
}
