import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { publishEvents } from '../../subgraphs/platform/webhooks/outbox.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { readSse } from '../support/event-streams.ts';
import { startServiceProcess } from '../support/processes.ts';
import type { ServiceProcess } from '../support/processes.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';

/**
 * Streams across OS processes: two gateways on one PostgreSQL and one Redis, events written by a third process
 * (this one), and a gateway killed with SIGKILL under its subscriber. Several processes on one database exist only
 * with PostgreSQL; on PGlite, test/events/subscriptions.test.ts covers the single process.
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
      const open = (gateway: ServiceProcess, lastEventId?: string) =>
        fetch(`${gateway.url}/graphql/stream`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          },
          body: JSON.stringify({ query: BRIEFINGS }),
        });

      const received: string[] = [];
      let lastEventId: string | undefined;
      /** Reads `response` until `count` events in all, or until its connection dies (the gateway was killed). */
      const readUntil = async (response: Response, count: number, onEvent: () => void = () => {}) => {
        expect(response.status).toBe(200);
        try {
          for await (const message of readSse(response)) {
            if (message.event !== 'next') continue;
            received.push(JSON.parse(message.data).data.events.id);
            lastEventId = message.id;
            onEvent();
            if (received.length >= count) return;
          }
        } catch {
          // The connection was cut: resume below.
        }
      };

      const [first, second] = gateways as [ServiceProcess, ServiceProcess];
      const stream = await open(first);
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
      await readUntil(stream, EVENTS, () => {
        if (received.length === 300) killed = first.kill();
      });
      await killed;
      expect(received.length).toBeGreaterThanOrEqual(300);
      expect(received.length).toBeLessThan(EVENTS);

      // The client reconnects elsewhere with the last cursor it received, as an EventSource does.
      await readUntil(await open(second, lastEventId), EVENTS);
      await writing;
      const published = await live.sql.query<{ id: string }>(
        `SELECT id FROM webhook_events WHERE type = 'briefing.published' ORDER BY xid, seq`,
      );
      expect(received).toEqual(published.map((row) => row.id));
      expect(new Set(received).size).toBe(EVENTS);
    });
  });
}
