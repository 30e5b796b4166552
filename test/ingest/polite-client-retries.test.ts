import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { failureOf, removeStores, testClient } from './polite-client-support.ts';

const BODY = JSON.stringify({ data: [1, 2, 3] });
const json = { body: BODY, contentType: 'application/json' };
const rateLimited = (retryAfter: string) => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: 'slow down',
});

/** Waiting out a source that says "later", and never asking a host faster than its rate; counted server-side. */
describe('the polite HTTP client: retries and rate', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    server = await startFixtureServer({
      '/limited-seconds.json': { ...json, before: [rateLimited('1')] },
      '/unavailable.json': { ...json, before: [{ status: 503 }, { status: 503 }] },
      '/always-unavailable.json': { body: 'maintenance', status: 503 },
      '/asks-too-long.json': { ...json, before: [rateLimited('120')] },
      '/reset.json': { reset: true },
      '/data.json': json,
    });
  });
  afterAll(async () => {
    await server?.close();
    await removeStores();
  });

  it('waits out a 429 for the seconds its Retry-After gives, then fetches', async () => {
    const { client } = await testClient({ maxRetryWaitMs: 5000 });
    const outcome = await client.fetchFile({ url: server.url('/limited-seconds.json'), expect: 'json' });
    expect(outcome).toMatchObject({ status: 'fetched', attempts: 2 });
    const [first, second] = server.requestsTo('/limited-seconds.json');
    expect(first!.status).toBe(429);
    expect(second!.status).toBe(200);
    // Not sooner than asked (a lower bound, which a slow machine only lengthens).
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('waits out a 429 whose Retry-After is an HTTP date', async () => {
    const path = '/limited-date.json';
    // An HTTP date has whole seconds: two seconds ahead is between one and two seconds of wait.
    server.routes[path] = { ...json, before: [rateLimited(new Date(Date.now() + 2000).toUTCString())] };
    const { client } = await testClient({ maxRetryWaitMs: 5000 });
    expect(await client.fetchFile({ url: server.url(path), expect: 'json' })).toMatchObject({ status: 'fetched' });
    const [first, second] = server.requestsTo(path);
    expect([first!.status, second!.status]).toEqual([429, 200]);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  });

  it('backs off exponentially from 503s without Retry-After', async () => {
    const { client } = await testClient({ backoffBaseMs: 200 });
    expect(await client.fetchFile({ url: server.url('/unavailable.json'), expect: 'json' })).toMatchObject({
      status: 'fetched',
      attempts: 3,
    });
    const times = server.requestsTo('/unavailable.json').map((request) => request.at);
    expect(server.requestsTo('/unavailable.json').map((request) => request.status)).toEqual([503, 503, 200]);
    // Equal jitter: the n-th wait is between half and all of 200 ms × 2^(n-1).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(95);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(195);
  });

  it('fails with the status after the configured retries', async () => {
    const { client, files } = await testClient({ retries: 2, backoffBaseMs: 20 });
    const failure = await failureOf(client, { url: server.url('/always-unavailable.json'), expect: 'json' });
    expect(failure).toMatchObject({
      code: 'http_status',
      httpStatus: 503,
      message: 'HTTP 503 Service Unavailable, after 3 attempts',
    });
    expect(server.requestsTo('/always-unavailable.json')).toHaveLength(3);
    expect(await files()).toEqual([]);
  });

  it('fails at once, with the reason, when Retry-After asks for more than the cap', async () => {
    const { client } = await testClient({ maxRetryWaitMs: 2000 });
    const failure = await failureOf(client, { url: server.url('/asks-too-long.json'), expect: 'json' });
    expect(failure).toMatchObject({ code: 'http_status', httpStatus: 429 });
    expect(failure.message).toBe(
      'HTTP 429 Too Many Requests; the server asks to wait 120 s (Retry-After), more than the 2 s this client waits',
    );
    expect(server.requestsTo('/asks-too-long.json')).toHaveLength(1);
  });

  it('retries a connection reset, then fails as a network error', async () => {
    const { client } = await testClient({ retries: 2, backoffBaseMs: 20 });
    const failure = await failureOf(client, { url: server.url('/reset.json'), expect: 'json' });
    expect(failure.code).toBe('network');
    expect(failure.httpStatus).toBeUndefined();
    expect(failure.message).toMatch(/^no answer: .+, after 3 attempts$/);
    expect(server.requestsTo('/reset.json')).toHaveLength(3);
  });

  it('says a refused connection by its code, naming no address (the reason is public on /api/stats/sources)', async () => {
    const { client } = await testClient({ retries: 1, backoffBaseMs: 20 });
    // A port that was free a moment ago: nothing listens there now, so the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await failureOf(client, { url: `http://127.0.0.1:${port}/refused.json`, expect: 'json' });
    expect(failure.code).toBe('network');
    expect(failure.message).toBe('no answer: ECONNREFUSED (connection refused), after 2 attempts');
  });

  it('holds every request to a host that answered Retry-After, not only the one retried', async () => {
    const path = '/limited-shared.json';
    server.routes[path] = { ...json, before: [rateLimited('1')] };
    let retrying!: () => void;
    const retried = new Promise<void>((resolve) => (retrying = resolve));
    const { client } = await testClient({ maxRetryWaitMs: 5000, logger: { warn: () => retrying() } });
    const limited = client.fetchFile({ url: server.url(path), expect: 'json' });
    await retried;
    // Another file from the same host, asked for while the first waits out its 429.
    await client.fetchFile({ url: server.url('/data.json?while-paused'), expect: 'json' });
    await limited;
    const refused = server.requestsTo(path)[0]!;
    const other = server.requestsTo('/data.json?while-paused')[0]!;
    expect(other.at - refused.at).toBeGreaterThanOrEqual(950);
  });

  it('starts at most N requests to a host in any second, whatever the number asked for at once', async () => {
    const { client } = await testClient({ requestsPerSecondPerHost: 5 });
    const paths = Array.from({ length: 12 }, (_, index) => `/data.json?n=${index}`);
    const outcomes = await Promise.all(
      paths.map((path) => client.fetchFile({ url: server.url(path), expect: 'json' })),
    );
    expect(outcomes.every((outcome) => outcome.status === 'fetched')).toBe(true);
    const arrivals = paths.map((path) => server.requestsTo(path)[0]!.at).sort((a, b) => a - b);
    // Any six consecutive arrivals span a second or more (less a little for the network between throttle and server),
    // so no one-second window holds more than five; twelve requests take at least two seconds.
    for (let index = 0; index + 5 < arrivals.length; index += 1)
      expect(arrivals[index + 5]! - arrivals[index]!).toBeGreaterThanOrEqual(900);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(1900);
  });
});
