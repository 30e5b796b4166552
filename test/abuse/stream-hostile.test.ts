import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { FUZZ } from './fuzz-config.ts';
import { hostileJson, hostileString } from './hostile-values.ts';
import { expectDocumentedResponse, expectNothingLeaked } from './responses.ts';

/**
 * The subscription transports under hostile requests: /graphql/stream (GraphQL over SSE) and the WebSocket upgrade
 * of /graphql (graphql-ws). Never a 5xx; a refusal is our error body or a GraphQL error with a code; nothing leaks;
 * a socket that breaks the protocol or comes from a foreign origin is closed or refused, never served.
 */
const ALLOWED_ORIGIN = 'https://app.example.com';
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0, server: { corsOrigins: [ALLOWED_ORIGIN] } });
  ({ key } = await service.createKey({ mode: 'live' }));
});
afterAll(() => service?.stop());

/** POSTs `body` to /graphql/stream; a stream that opens is cancelled at once and reported as its status. */
async function postStream(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${service.url}/graphql/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body,
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { request: body.slice(0, 300), status: response.status, contentType, text: '' };
  }
  return { request: body.slice(0, 300), status: response.status, contentType, text: await response.text() };
}

/** A refusal: our error body, or a GraphQL response whose errors each carry a code; never a 5xx or a leak. */
function expectRefusal(exchange: Awaited<ReturnType<typeof postStream>>) {
  const context = `${exchange.request}\n→ ${exchange.status} ${exchange.text.slice(0, 500)}`;
  expect(exchange.status, context).toBeLessThan(500);
  if (exchange.status < 400) return;
  const body = JSON.parse(exchange.text) as { errors?: { message: string; extensions?: { code?: unknown } }[] };
  if (!body.errors) return expectDocumentedResponse(exchange);
  expect(body.errors.length, context).toBeGreaterThan(0);
  for (const error of body.errors) expect(typeof error.extensions?.code, context).toBe('string');
  expectNothingLeaked(exchange.text, context);
}

describe('/graphql/stream', () => {
  it('refuses documents that do not validate, parse or subscribe, and bodies too large', async () => {
    const unknownField = `subscription { events { ${'x { '.repeat(30)}${'}'.repeat(30)} } }`;
    for (const query of [unknownField, 'subscription {', '{ events { hasMore } }', 'mutation { x }', '']) {
      const answer = await postStream(JSON.stringify({ query }));
      expectRefusal(answer);
      expect(answer.status, query).toBe(400);
    }
    const huge = await postStream(
      JSON.stringify({ query: `subscription { events { id } } #${'x'.repeat(2_000_000)}` }),
    );
    expectRefusal(huge);
    expect(huge.status).toBe(413);
    const nul = await postStream(JSON.stringify({ query: 'subscription { events(since: "a\u0000b") { id } }' }));
    expectRefusal(nul);
    expect(nul.status).toBe(400);
  });

  it('answers any hostile body with a documented refusal or a stream, never a 5xx', async () => {
    const body = fc.oneof(
      fc.record({ query: hostileString, variables: hostileJson }),
      fc.record({
        query: fc.constant('subscription ($s: String) { events(since: $s) { id } }'),
        variables: fc.record({ s: hostileJson }),
      }),
      fc.record({
        query: fc.constant('subscription ($t: [String!]) { events(types: $t) { id } }'),
        variables: fc.record({ t: hostileJson }),
      }),
      hostileJson,
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => expectRefusal(await postStream(JSON.stringify(value) ?? 'null'))),
      { seed: FUZZ.seed, numRuns: FUZZ.numRuns },
    );
  });
});

/** Opens a socket to `path` with `options`; resolves with how it ended (close code) or the HTTP status refused. */
function socketOutcome(
  path: string,
  options: { origin?: string; protocol?: string; send?: string[] } = {},
): Promise<{ closed?: number; status?: number; messages: string[] }> {
  return new Promise((resolve) => {
    const messages: string[] = [];
    const socket = new WebSocket(
      `${service.url.replace('http', 'ws')}${path}`,
      options.protocol ?? 'graphql-transport-ws',
      {
        origin: options.origin,
      },
    );
    socket.on('open', () => {
      for (const message of options.send ?? []) socket.send(message);
    });
    socket.on('message', (data) => messages.push(String(data)));
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode, messages });
      socket.terminate();
    });
    socket.on('close', (code) => resolve({ closed: code, messages }));
    socket.on('error', () => undefined);
  });
}

describe('the WebSocket upgrade', () => {
  const init = (authorization: string) => JSON.stringify({ type: 'connection_init', payload: { authorization } });

  it('refuses a foreign origin and an unknown path before the handshake', async () => {
    expect((await socketOutcome('/graphql', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await socketOutcome('/api/signals')).status).toBe(404);
    const allowed = await socketOutcome('/graphql', { origin: ALLOWED_ORIGIN, send: [init('Bearer nope')] });
    expect(allowed.closed).toBe(4401);
  });

  it('closes a socket that breaks the protocol', async () => {
    // Not JSON, a subscribe before connection_init, a message past the body limit.
    expect((await socketOutcome('/graphql', { send: ['{not json'] })).closed).toBe(4400);
    const early = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { events { id } }' } });
    expect((await socketOutcome('/graphql', { send: [early] })).closed).toBe(4401);
    expect((await socketOutcome('/graphql', { send: ['x'.repeat(2_000_000)] })).closed).toBe(1009);
    // Another subprotocol: the server takes none, so the client aborts the handshake (1006) or graphql-ws closes 4406.
    const foreign = await socketOutcome('/graphql', { protocol: 'not-graphql' });
    expect([1006, 4406]).toContain(foreign.closed);
    expect(foreign.messages).toEqual([]);
  });

  it('refuses a query over the socket and a subscription above the plan, with coded errors', async () => {
    const { key: analyst } = await service.createKey({ plan: 'analyst', mode: 'live' });
    const subscribe = (id: string, query: string) => JSON.stringify({ id, type: 'subscribe', payload: { query } });
    const outcome = await new Promise<string[]>((resolve) => {
      const messages: string[] = [];
      const socket = new WebSocket(`${service.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      socket.on('open', () => socket.send(init(`Bearer ${analyst}`)));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string };
        if (message.type === 'connection_ack') {
          socket.send(subscribe('q', '{ events { hasMore } }'));
          socket.send(subscribe('p', 'subscription { events(types: ["convergence_lead.changed"]) { id } }'));
          return;
        }
        messages.push(String(data));
        if (messages.length === 2) {
          socket.close();
          resolve(messages);
        }
      });
    });
    const errors = outcome.map(
      (text) => JSON.parse(text) as { id: string; type: string; payload: { extensions?: { code?: string } }[] },
    );
    expect(errors.map((message) => [message.id, message.type]).sort()).toEqual([
      ['p', 'error'],
      ['q', 'error'],
    ]);
    expect(errors.find((message) => message.id === 'p')!.payload[0]!.extensions!.code).toBe('plan_required');
    for (const text of outcome) expectNothingLeaked(text, text);
  });

  it('answers an upgrade to another protocol with a 4xx', async () => {
    const status = await new Promise<number>((resolve) => {
      const request = httpRequest(
        `${service.url}/graphql`,
        { method: 'GET', headers: { connection: 'upgrade', upgrade: 'h2c' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', () => resolve(0));
      request.end();
    });
    expect(status).toBeLessThan(500);
  });
});
