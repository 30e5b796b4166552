/**
 * A subscription from a browser's own `EventSource` (Debian's Chromium through playwright-core): no GraphQL client,
 * the key in `access_token` because EventSource cannot send headers, through an import of a real file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { REAL_FILES, SNAPSHOT_DAY } from '../import/real-data.ts';
import { startBrowserTest } from '../support/browser-test.ts';
import type { BrowserTest } from '../support/browser-test.ts';
import { watchPage } from '../support/chromium.ts';

let world: BrowserTest;

beforeAll(async () => {
  world = await startBrowserTest(async () => {});
});
afterAll(() => world?.stop());

describe('EventSource on /graphql/stream', () => {
  it('receives every new trade of an import, each with its cursor as the event id', async () => {
    const { service, browser } = world;
    // A live key: a sandbox key's trial credits (one per event delivered) would end the stream before the import does.
    const { key } = await service.createKey({ mode: 'live' });
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    // Any page of the service's origin: the stream is same-origin.
    await page.goto(`${service.url}/healthz`);
    const query = 'subscription { events(types: ["congressional_trade.disclosed"]) { id cursor } }';
    const url = `/graphql/stream?query=${encodeURIComponent(query)}&access_token=${key}`;
    await page.evaluate((streamUrl) => {
      const state = { received: [] as { id: string; cursor: string; lastEventId: string }[], open: false };
      Object.assign(globalThis, { stream: state });
      const source = new EventSource(streamUrl);
      source.onopen = () => (state.open = true);
      source.addEventListener('next', (event) => {
        const message = event as unknown as { data: string; lastEventId: string };
        const { data } = JSON.parse(message.data);
        state.received.push({ ...data.events, lastEventId: message.lastEventId });
      });
    }, url);
    await page.waitForFunction(() => (globalThis as any).stream.open);

    await runImport(service.databases.live, 'senate-trades', [REAL_FILES.senateSlice], { now: SNAPSHOT_DAY });
    const written = await service.databases.live.sql.query<{ id: string }>(
      `SELECT id FROM webhook_events WHERE type = 'congressional_trade.disclosed' ORDER BY xid, seq`,
    );
    await page.waitForFunction((count) => (globalThis as any).stream.received.length >= count, written.length, {
      timeout: 50_000,
    });
    const received: { id: string; cursor: string; lastEventId: string }[] = await page.evaluate(
      () => (globalThis as any).stream.received,
    );
    expect(received.map((event) => event.id)).toEqual(written.map((row) => row.id));
    expect(received.every((event) => event.lastEventId === event.cursor)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
