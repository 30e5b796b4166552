import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { eventStream } from '../../subgraphs/markets/events/event-stream.ts';
import { publishEvents } from '../../subgraphs/platform/webhooks/outbox.ts';
import { REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';
import { readSse, sseSubscription, wsSubscription } from '../support/event-streams.ts';
import type { SseMessage } from '../support/event-streams.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
const TRADES = 'congressional_trade.disclosed';
const EVENTS = `subscription ($types: [String!], $since: String) {
  events(types: $types, since: $since) { id cursor type data }
}`;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0, server: { streams: { perKey: 4 } } });
});
afterAll(() => service?.stop());

const liveKey = async (plan: 'analyst' | 'professional' | 'institutional' = 'institutional') =>
  service.createKey({ plan, mode: 'live' });

/** Every event of `types` after `cursor`, as a sync job reads GET /api/events. */
async function syncAll(key: string, types: string) {
  const events: { id: string; cursor: string }[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await service.get(
      `/api/events?types=${types}&limit=100${after ? `&starting_after=${after}` : ''}`,
      key,
    );
    expect(page.status, page.text).toBe(200);
    events.push(...page.body.events);
    after = page.body.next_cursor ?? after;
    if (!page.body.has_more) return events;
  }
}

const disclosedIds = async () =>
  (
    await service.databases.live.sql.query<{ id: string }>(
      `SELECT id FROM webhook_events WHERE type = $1 ORDER BY xid, seq`,
      [TRADES],
    )
  ).map((row) => row.id);

/** A plain SSE request (fetch) to /graphql/stream. */
const openSse = (key: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/graphql/stream`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });

/** The `next` messages of a plain SSE stream until `count` of them or the stream's end. */
async function nextMessages(response: Response, count: number, until?: (message: SseMessage) => boolean) {
  const messages: SseMessage[] = [];
  for await (const message of readSse(response)) {
    messages.push(message);
    if (until?.(message) || messages.filter((m) => m.event === 'next').length >= count) break;
  }
  return messages;
}

describe('subscriptions through an import', () => {
  it('give SSE, WebSocket and replaying subscribers exactly the import’s new trades, as the feed lists them', async () => {
    const { key } = await liveKey();
    const viaSse = sseSubscription(service.url, key, { query: EVENTS, variables: { types: [TRADES] } });
    const viaWs = wsSubscription(service.url, key, {
      query: 'subscription { congressionalTradeAdded { id memberName ticker } }',
    });
    // Both are connected once the server counts their streams.
    await expect.poll(() => service.app.streamCount(), { timeout: 10_000 }).toBe(2);

    await runImport(service.databases.live, 'senate-trades', [REAL_FILES.senateSlice], { now: SNAPSHOT_DAY });
    const written = await disclosedIds();
    expect(written.length).toBeGreaterThan(1_000);

    const sse = await viaSse.until(written.length);
    const ws = await viaWs.until(written.length);
    const fromSse = sse.map((result: any) => result.data.events.id);
    expect(fromSse).toEqual(written);
    const trades = ws.map((result: any) => result.data.congressionalTradeAdded);
    const stored = await service.databases.live.sql.query<{ id: string }>(
      `SELECT (body::jsonb->'data'->>'id') AS id FROM webhook_events WHERE type = $1 ORDER BY xid, seq`,
      [TRADES],
    );
    expect(trades.map((trade: { id: string }) => trade.id)).toEqual(stored.map((row) => row.id));
    // Each result carries its event's cursor; the feed read from empty holds the same events in the same order.
    expect((sse[0] as any).extensions.cursor).toBe((sse[0] as any).data.events.cursor);
    const synced = await syncAll(key, TRADES);
    expect(synced.map((event) => event.id)).toEqual(written);

    // A subscriber that starts after the import with `since` gets the rest of the log, then live, no duplicate.
    const from = synced[9]!.cursor;
    const replaying = wsSubscription(service.url, key, { query: EVENTS, variables: { types: [TRADES], since: from } });
    const replayed = await replaying.until(written.length - 10);
    expect(replayed.map((result: any) => result.data.events.id)).toEqual(written.slice(10));

    await Promise.all([viaSse.stop(), viaWs.stop(), replaying.stop()]);
    await expect.poll(() => service.app.streamCount()).toBe(0);
  });

  it('meters each delivered event as one call of the key', async () => {
    const { key } = await liveKey();
    const synced = await syncAll(key, TRADES);
    const before = await service.get('/api/v1/usage', key);
    // After this cursor the log holds exactly 25 trades: the stream delivers them, then waits.
    const since = synced.at(-26)!.cursor;
    const stream = wsSubscription(service.url, key, { query: EVENTS, variables: { types: [TRADES], since } });
    expect(await stream.until(25)).toHaveLength(25);
    await stream.stop();
    const after = await service.get('/api/v1/usage', key);
    // The 25 events and the usage call itself.
    expect(after.body.calls - before.body.calls).toBe(26);
  });
});

describe('resuming', () => {
  it('resumes after Last-Event-ID: a reconnecting EventSource gets the events after the last it received', async () => {
    const { key } = await liveKey();
    const synced = await syncAll(key, TRADES);
    const response = await openSse(
      key,
      { query: EVENTS, variables: { types: [TRADES] } },
      {
        'last-event-id': synced[99]!.cursor,
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const messages = (await nextMessages(response, 5)).filter((message) => message.event === 'next');
    expect(messages.map((message) => JSON.parse(message.data).data.events.id)).toEqual(
      synced.slice(100, 105).map((event) => event.id),
    );
    // Each message's id is its event's cursor: what the browser sends back as Last-Event-ID.
    expect(messages.map((message) => message.id)).toEqual(synced.slice(100, 105).map((event) => event.cursor));
  });
});

describe('refusals', () => {
  it('answers plain JSON errors with their status before a stream starts', async () => {
    const { key } = await liveKey('analyst');
    const noKey = await openSse(undefined, { query: EVENTS });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: 'unauthorized' });

    const query = await openSse(key, { query: '{ events { hasMore } }' });
    expect(query.status).toBe(400);
    expect(((await query.json()) as any).errors[0].message).toMatch(/not a subscription/);

    const aboveThePlan = await openSse(key, { query: EVENTS, variables: { types: ['convergence_lead.changed'] } });
    expect(aboveThePlan.status).toBe(403);
    expect(((await aboveThePlan.json()) as any).errors[0].extensions.code).toBe('plan_required');

    const badCursor = await openSse(key, { query: EVENTS, variables: { since: 'not-a-cursor' } });
    expect(badCursor.status).toBe(400);
    expect(((await badCursor.json()) as any).errors[0].extensions.details).toEqual({
      starting_after: 'is not a cursor this feed gave',
    });

    const overPost = await service.graphqlRaw(EVENTS, {}, key);
    expect(overPost.status).toBe(400);
    expect(overPost.body.errors[0].message).toMatch(/needs a stream/);
  });

  it('refuses a key’s stream past STREAMS_PER_KEY with a 429', async () => {
    const { key } = await liveKey();
    const open = await Promise.all([1, 2, 3, 4].map(() => openSse(key, { query: EVENTS })));
    expect(open.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const fifth = await openSse(key, { query: EVENTS });
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as any).errors[0].extensions.code).toBe('rate_limited');
    for (const response of open) await response.body!.cancel();
    await expect.poll(() => service.app.streamCount()).toBe(0);
  });

  it('ends a revoked key’s stream at once, with no event needed', async () => {
    const { key } = await liveKey();
    const response = await openSse(key, { query: EVENTS });
    expect(response.status).toBe(200);
    await expect.poll(() => service.app.streamCount()).toBe(1);
    await service.databases.live.sql.query(
      `UPDATE api_keys SET revoked_at = now() WHERE hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [key],
    );
    const messages = await nextMessages(response, 1, (message) => message.event === 'complete');
    const results = messages.filter((message) => message.event === 'next').map((message) => JSON.parse(message.data));
    expect(results).toEqual([
      { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'unauthorized' }) })] },
    ]);
  });
});

describe('a client that falls behind', () => {
  it('is given every event in order from the log, never holding more than its bound in memory', async () => {
    const { accountId } = await liveKey();
    const live = service.databases.live;
    const stream = await eventStream(live, {
      types: ['briefing.published'],
      plan: 'analyst',
      accountId,
      maxBuffered: 20,
    });
    // One transaction of 500: the tail hands them to the stream at once, far past its bound.
    const events = Array.from({ length: 500 }, (_, n) => ({ type: 'briefing.published', data: { n }, attributes: {} }));
    await publishEvents(live.sql, events);
    const written = await live.sql.query<{ id: string }>(
      `SELECT id FROM webhook_events WHERE type = 'briefing.published' ORDER BY xid, seq`,
    );
    const received: string[] = [];
    let mostHeld = 0;
    while (received.length < 500) {
      mostHeld = Math.max(mostHeld, stream.size);
      received.push((await stream.next()).value!.id);
    }
    await stream.return();
    expect(received).toEqual(written.map((row) => row.id));
    // Past its bound the stream reads the log a page (100) at a time, the next one once fewer than a page wait:
    // at most the bound and two pages.
    expect(mostHeld).toBeGreaterThan(20);
    expect(mostHeld).toBeLessThanOrEqual(20 + 2 * 100);
  });
});

describe('shutting down', () => {
  it('ends each open stream with a reconnect hint and no `complete`, so its client resumes elsewhere', async () => {
    const closing = await startTestService({ sandboxScale: 0 });
    const { key } = await closing.createKey({ mode: 'live' });
    const response = await fetch(`${closing.url}/graphql/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: EVENTS }),
    });
    expect(response.status).toBe(200);
    const messages = (async () => {
      const all: SseMessage[] = [];
      for await (const message of readSse(response)) all.push(message);
      return all;
    })();
    await expect.poll(() => closing.app.streamCount()).toBe(1);
    await closing.stop();
    const events = (await messages).map((message) => message.event);
    expect(events).toEqual(['retry', 'comment']);
    expect(events).not.toContain('complete');
  });
});
