import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';

/** What a subscriber received, as it arrives; `until` resolves once `count` results are in. */
export interface Collected<Result> {
  results: Result[];
  until(count: number): Promise<Result[]>;
  /** Resolves when the stream ended (completed, or failed: then with its error). */
  ended: Promise<unknown>;
  stop(): Promise<void>;
}

/** Reads `iterator` into a list in the background (a subscriber that stays connected). */
export function collect<Result>(iterator: AsyncIterableIterator<Result>): Collected<Result> {
  const results: Result[] = [];
  const waiters: { count: number; resolve: (results: Result[]) => void }[] = [];
  const ended = (async () => {
    try {
      for await (const result of iterator) {
        results.push(result);
        for (const waiter of waiters.filter(({ count }) => results.length >= count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(results);
        }
      }
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  return {
    results,
    until: (count) =>
      results.length >= count ? Promise.resolve(results) : new Promise((resolve) => waiters.push({ count, resolve })),
    ended,
    async stop() {
      await iterator.return?.();
      await ended;
    },
  };
}

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
}

/** A subscription through graphql-sse's own client (distinct connections mode), as a JavaScript app runs one. */
export function sseSubscription(baseUrl: string, key: string, request: GraphQLRequest) {
  const client = createSseClient({
    url: `${baseUrl}/graphql/stream`,
    headers: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  return collect(client.iterate(request));
}

/** A subscription through graphql-ws's own client over a WebSocket (the `ws` package), the key in connection_init. */
export function wsSubscription(baseUrl: string, key: string, request: GraphQLRequest) {
  const client = createWsClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: true,
  });
  const collected = collect(client.iterate(request));
  return {
    ...collected,
    async stop() {
      await collected.stop();
      await client.dispose();
    },
  };
}

/** One Server-Sent Event as a plain reader sees it. */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A plain SSE reader over fetch (what a script without a GraphQL client does): the messages of one response,
 * comments and `retry:` lines included as `event: 'comment'` / `'retry'`, so tests see heartbeats and hints.
 */
export async function* readSse(response: Response): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const message: SseMessage = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) message.event ??= 'comment';
        else if (line.startsWith('retry:')) message.event ??= 'retry';
        else if (line.startsWith('id: ')) message.id = line.slice(4);
        else if (line.startsWith('event: ')) message.event = line.slice(7);
        else if (line.startsWith('data: ')) message.data += line.slice(6);
      }
      yield message;
    }
  }
}

/**
 * An SSE subscriber that resumes as a browser's EventSource does: it keeps the `events` ids it received and the
 * last message id, and each `open` after the first sends that id as Last-Event-ID.
 */
export function resumingSseSubscriber(key: string, query: string) {
  const received: string[] = [];
  let lastEventId: string | undefined;
  return {
    received,
    open: (baseUrl: string) =>
      fetch(`${baseUrl}/graphql/stream`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        body: JSON.stringify({ query }),
      }),
    /** Reads `response` until `count` events in all (true), or until its connection ends first (false). */
    async readUntil(response: Response, count: number, onEvent: () => void = () => {}): Promise<boolean> {
      if (response.status !== 200)
        throw new Error(`the stream was refused: ${response.status} ${await response.text()}`);
      try {
        for await (const message of readSse(response)) {
          if (message.event !== 'next') continue;
          received.push((JSON.parse(message.data) as { data: { events: { id: string } } }).data.events.id);
          lastEventId = message.id;
          onEvent();
          if (received.length >= count) return true;
        }
      } catch {
        // The connection was cut (the server went away): the caller resumes.
      }
      return false;
    },
  };
}
