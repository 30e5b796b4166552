import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { runImport } from '../../gateway/import/run.ts';
import { EVENT_POLL_SECONDS } from '../../gateway/rest/markets-routes.ts';
import { encodeEventCursor } from '../../subgraphs/markets/events/event-log.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
  // The held-out Form 4 of test/fixtures/real: its transactions are the log's first events.
  await runImport(service.databases.live, 'form4', [REAL_FILES.form4], { now: SNAPSHOT_DAY });
});
afterAll(() => service?.stop());

async function liveKey(plan: Plan = 'institutional') {
  const account = await createAccount(service.databases.live, plan);
  return (await createApiKey(service.databases.live, account.id, 'live')).key;
}

/** Every event after `cursor`, read page by page as a sync job does. */
async function syncAll(key: string, query: string, cursor?: string) {
  const events: any[] = [];
  let after = cursor;
  for (let page = 0; page < 100; page++) {
    const answer = await service.get(`/api/events?${query}${after ? `&starting_after=${after}` : ''}`, key);
    expect(answer.status, answer.text).toBe(200);
    events.push(...answer.body.events);
    if (answer.body.next_cursor) after = answer.body.next_cursor;
    if (!answer.body.has_more) return { events, cursor: after };
  }
  throw new Error('the feed never ended');
}

describe('GET /api/events', () => {
  it('gives an import’s new trades as events, oldest first, each with its webhook body, page by page', async () => {
    const key = await liveKey();
    const stored = await service.databases.live.sql.query<{ id: string; type: string; body: string }>(
      `SELECT id, type, body FROM webhook_events WHERE type = 'insider_trade.filed' ORDER BY xid, seq`,
    );
    const [trades] = await service.databases.live.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM insider_transactions',
    );
    expect(stored).toHaveLength(trades!.n);

    const { events } = await syncAll(key, 'types=insider_trade.filed&limit=3');
    expect(events.map((event) => event.id)).toEqual(stored.map((event) => event.id));
    for (const [index, event] of events.entries()) {
      expect(Object.keys(event).sort()).toEqual(['cursor', 'data', 'id', 'timestamp', 'type']);
      const body = JSON.parse(stored[index]!.body);
      expect({ type: event.type, timestamp: event.timestamp, data: event.data }).toEqual(body);
    }
    const listed = await service.get('/api/insider-trades?limit=50', key);
    expect(new Set(events.map((event) => event.data.id))).toEqual(
      new Set(listed.body.trades.map((trade: { id: string }) => trade.id)),
    );
  });

  it('answers 304 to a poll that has nothing new, and says how often to poll', async () => {
    const key = await liveKey();
    const { cursor } = await syncAll(key, 'limit=100');
    const caughtUp = await service.get(`/api/events?starting_after=${cursor}`, key);
    expect(caughtUp.body).toEqual({ events: [], has_more: false, next_cursor: null });
    expect(caughtUp.headers.get('x-poll-interval')).toBe(String(EVENT_POLL_SECONDS));
    const etag = caughtUp.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await service.request('GET', `/api/events?starting_after=${cursor}`, {
      key,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // A new event changes the page, and so its tag.
    await service.databases.live.sql.query(
      `INSERT INTO webhook_events (id, type, body, attributes)
       VALUES ('msg_feed_new', 'briefing.published', '{"type":"briefing.published","timestamp":"2026-12-02T00:00:00.000Z","data":{"date":"2026-12-01"}}', '{}')`,
    );
    const changed = await service.request('GET', `/api/events?starting_after=${cursor}`, {
      key,
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.events.map((event: { id: string }) => event.id)).toEqual(['msg_feed_new']);
  });

  it('shows each plan the events of its data, and each account its own events only', async () => {
    await service.databases.live.sql.query(
      `INSERT INTO webhook_events (id, type, body, attributes) VALUES
         ('msg_feed_lead', 'convergence_lead.changed', '{"type":"convergence_lead.changed","timestamp":"2026-12-02T00:00:00.000Z","data":{"ticker":"SNOW"}}', '{"ticker":"SNOW"}'),
         ('msg_feed_mine', 'report.completed', '{"type":"report.completed","timestamp":"2026-12-02T00:00:00.000Z","data":{}}', '{"account_id":"someone-else"}')`,
    );
    const analyst = await liveKey('analyst');
    const seen = (await syncAll(analyst, 'limit=100')).events.map((event) => event.id);
    expect(seen).not.toContain('msg_feed_lead');
    expect(seen).not.toContain('msg_feed_mine');
    const refused = await service.get('/api/events?types=convergence_lead.changed', analyst);
    expectError(refused, 403, 'plan_required');
    const professional = await liveKey('professional');
    const leads = (await syncAll(professional, 'types=convergence_lead.changed&ticker=snow')).events;
    expect(leads.map((event) => event.id)).toEqual(['msg_feed_lead']);
    expect((await syncAll(professional, 'limit=100')).events.map((event) => event.id)).not.toContain('msg_feed_mine');
  });

  it('refuses what it cannot read: a made-up cursor, an unknown type, a cursor past retention', async () => {
    const key = await liveKey();
    expectError(await service.get('/api/events?starting_after=nonsense', key), 400, 'invalid_parameter', [
      'starting_after',
    ]);
    expectError(await service.get('/api/events?types=trade.invented', key), 400, 'invalid_parameter', ['types']);
    expectError(await service.get('/api/events?limit=101', key), 400, 'invalid_parameter', ['limit']);
    const old = encodeEventCursor({ xid: '1', seq: '1', at: Date.now() - 31 * 86_400_000 });
    const gone = await service.get(`/api/events?starting_after=${old}`, key);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ error: 'cursor_expired', message: expect.stringContaining('30 days') });
  });
});

if (TEST_ENGINE === 'postgres') {
  describe('an event that commits late', () => {
    it('is read after the events that committed before it, never passed over', async () => {
      const key = await liveKey();
      const { cursor } = await syncAll(key, 'limit=100');
      const late = new pg.Client({ connectionString: service.store.urls.live });
      await late.connect();
      try {
        await late.query('BEGIN');
        await late.query(
          `INSERT INTO webhook_events (id, type, body, attributes)
           VALUES ('msg_late', 'briefing.published', '{"type":"briefing.published","timestamp":"2026-12-02T00:00:00.000Z","data":{}}', '{}')`,
        );
        await service.databases.live.sql.query(
          `INSERT INTO webhook_events (id, type, body, attributes)
           VALUES ('msg_early', 'briefing.published', '{"type":"briefing.published","timestamp":"2026-12-02T00:00:00.000Z","data":{}}', '{}')`,
        );
        // msg_early has committed, but an older transaction is still open: the feed waits for it.
        const waiting = await service.get(`/api/events?starting_after=${cursor}`, key);
        expect(waiting.body.events).toEqual([]);
        await late.query('COMMIT');
        const read = (await syncAll(key, 'limit=100', cursor)).events.map((event) => event.id);
        expect(read).toEqual(['msg_late', 'msg_early']);
      } finally {
        await late.end();
      }
    });
  });
}
