import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { runScript, serviceEnvironment, startChildServer } from '../support/child-process.ts';
import type { ChildServer } from '../support/child-process.ts';
import { readSse } from '../support/event-streams.ts';
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
    const created = await runScript(
      'scripts/admin.ts',
      ['create-key', '--plan', 'institutional', '--mode', 'live', '--json'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const subscribe = (lastEventId?: string) =>
      fetch(`${server!.url}/graphql/stream`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        body: JSON.stringify({ query: QUERY }),
      });

    const received: string[] = [];
    let lastEventId: string | undefined;
    /** Reads until `count` events in all; `false` when the stream ended first (the server went away). */
    const readUntil = async (response: Response, count: number) => {
      expect(response.status).toBe(200);
      try {
        for await (const message of readSse(response)) {
          if (message.event !== 'next') continue;
          received.push(JSON.parse(message.data).data.events.id);
          lastEventId = message.id;
          if (received.length >= count) return true;
        }
      } catch {
        // The connection was cut.
      }
      return false;
    };

    const first = await subscribe();
    const imported = await runScript('scripts/import.ts', ['senate-trades', REAL_FILES.senateSlice], env);
    expect(imported.code, imported.stderr).toBe(0);
    // Part of the import's events, then the server restarts under the subscriber.
    expect(await readUntil(first, 300)).toBe(true);
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
    expect(await readUntil(await subscribe(lastEventId), feed.length)).toBe(true);
    expect(received).toEqual(feed);

    // And the feed holds the import's new trades: one event for each trade the list now shows.
    const trades = await fetch(`${server.url}/api/congressional-trades?from=2000-01-01&limit=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const listed = (await trades.json()) as { total: number };
    expect(feed.length).toBeGreaterThan(1_000);
    expect(feed).toHaveLength(listed.total);
    expect(new Set(received).size).toBe(received.length);
  }, 300_000);
});
