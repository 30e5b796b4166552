import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyByCommand, runScript, serviceEnvironment, startChildServer } from '../support/child-process.ts';
import type { ChildServer } from '../support/child-process.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REAL_FILES } from '../import/real-data.ts';
import { Receiver, eventually, verifyEndpoint } from './receiver.ts';

/**
 * The "done when", as a user tries it: `npm start` as its own process, an Institutional key from the
 * admin command, a receiver registered, the real Senate file imported with the import command while the server
 * runs, and the server killed (SIGKILL: no shutdown hook) while deliveries are in flight, then started again.
 */
describe(`webhooks across a server killed mid-delivery (${TEST_ENGINE})`, () => {
  // 153 trades in the Senate file: deliveries still run when the import command returns.
  const TICKER = 'AAPL';
  /** How long the receiver holds each answer while the server is killed: the kill lands within one. */
  const RECEIVER_DELAY_MS = 1_500;
  const receiver = new Receiver();
  let store: TestDatabases;
  let env: NodeJS.ProcessEnv;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    await receiver.start();
    store = await createTestDatabases({ sandboxScale: 10 });
    // The server process opens the databases; this one lets go of them.
    await Promise.all(Object.values(store.databases).map((database) => database.close()));
    // A 3 s attempt timeout makes the lease (3 × timeout + 5 s) end 14 s after a claim: the restarted server
    // waits that long for the delivery the killed one had in flight, so the timeout is as short as leaves the
    // slow receiver's answers (RECEIVER_DELAY_MS) 1.5 s of margin on a loaded machine. An attempt late all the
    // same is sent again 5 s later, with the same id, which the test allows.
    env = serviceEnvironment(store, {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '3000',
    });
    server = await startChildServer(env);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await store?.drop();
    await receiver.stop();
  });

  it('delivers every event of the filtered ticker at least once, with the same id after the restart', async () => {
    const key = await createKeyByCommand(env);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const registered = await call('POST', '/api/webhooks', {
      url: receiver.url('restart'),
      events: ['congressional_trade.disclosed'],
      filters: { tickers: [TICKER] },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    receiver.secrets.set('restart', registered.body.secret);
    await verifyEndpoint(call, registered.body.id);
    // A slow receiver (within the timeout): deliveries are in flight for a while.
    receiver.delayMs = RECEIVER_DELAY_MS;

    const imported = await runScript('scripts/import.ts', ['senate-trades', REAL_FILES.senate], env);
    expect(imported.code, imported.stderr).toBe(0);
    // Killed while the receiver holds requests the server is waiting on.
    await eventually(() => expect(receiver.inFlight).toBeGreaterThan(0), 60_000);
    const killed = await server!.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    receiver.delayMs = 0;
    server = await startChildServer(env);

    // Every delivery recorded as delivered: those the killed server had in flight only after their lease ended.
    const deliveries = await eventually(async () => {
      const listed = await listDeliveries(call, registered.body.id);
      expect(listed.filter((delivery) => delivery.status !== 'delivered')).toEqual([]);
      return listed;
    }, 90_000);
    const events = new Set(deliveries.map((delivery) => delivery.event_id));
    expect(events.size).toBe(deliveries.length);
    const received = new Set(receiver.of('restart').map((event) => event.id));
    expect([...events].filter((id) => !received.has(id))).toEqual([]);
    expect(receiver.unverified).toEqual([]);
    // The delivery in flight at the kill was answered to nobody and sent again after its lease: same id, twice.
    const ids = receiver.of('restart').map((event) => event.id);
    expect(ids.length).toBeGreaterThan(new Set(ids).size);
    // Whatever came twice came with the same id: every id received is one of the endpoint's events.
    for (const event of receiver.of('restart')) {
      expect(events.has(event.id)).toBe(true);
      expect(event.data.ticker).toBe(TICKER);
    }
  }, 300_000);
});

/** The endpoint's deliveries, from its deliveries list (one page holds them all). */
async function listDeliveries(
  call: (method: string, path: string) => Promise<{ status: number; body: any }>,
  endpoint: string,
): Promise<{ event_id: string; status: string }[]> {
  const page = await call('GET', `/api/webhooks/${endpoint}/deliveries?limit=200`);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  expect(page.body.pages).toBe(1);
  return page.body.deliveries;
}
