import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, parse } from 'graphql';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import type { ResultStream } from '../execution/subscription.ts';
import { QUERY_LIMITS } from '../limits/policy.ts';
import { openStream } from './open-stream.ts';
import type { StreamDependencies } from './open-stream.ts';

/** GraphQL over WebSocket (graphql-ws's `graphql-transport-ws` protocol) shares /graphql's path. */
export const WS_PATH = '/graphql';
/** Close codes beside graphql-ws's own: a credential refused at connection, and a server restarting. */
const UNAUTHORIZED = 4401;
const SERVICE_RESTART = 1012;

interface SocketExtra extends Record<PropertyKey, unknown> {
  socket: WebSocket;
  request: IncomingMessage;
  viewer?: Viewer;
  authorization?: string;
}

const asGraphQLErrors = (result: { errors?: readonly { message: string; extensions?: object }[] }) =>
  (result.errors ?? []).map((error) => new GraphQLError(error.message, { extensions: { ...error.extensions } }));

/** Bytes a socket may have queued unsent before its client counts as stalled and is disconnected. */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
/** Policy violation: the client did not read its stream (it resumes with `since` = its last cursor). */
const STALLED = 1008;

interface SocketStream {
  results: ResultStream;
  socket: WebSocket;
}

/**
 * Each streamed result as graphql-ws sends it, the event's cursor in `extensions.cursor`. A client whose socket
 * holds more than MAX_UNSENT_BYTES is disconnected instead of being sent more. Not an async generator: graphql-ws
 * calls `return()` when the client completes, and a generator waiting for the next event could not return.
 */
function executionResults({ results, socket }: SocketStream): AsyncIterableIterator<ExecutionResult> {
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const next = await results.next();
      if (next.done) return { done: true, value: undefined };
      if (socket.bufferedAmount > MAX_UNSENT_BYTES) {
        socket.close(STALLED, 'stream_overflow: the client did not read; resubscribe with since');
        await results.return();
        return { done: true, value: undefined };
      }
      const { result, cursor } = next.value;
      const value = cursor ? { ...result, extensions: { ...result.extensions, cursor } } : result;
      return { done: false, value: value as ExecutionResult };
    },
    async return() {
      await results.return();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * graphql-ws on the gateway's HTTP server, at /graphql: the socket is authenticated once, at `connection_init`
 * (`{authorization: "Bearer <key>"}` in its payload, or the upgrade request's Authorization header), and every
 * `subscribe` opens a stream as SSE does (open-stream.ts): same bounds, checks, metering and errors. Queries and
 * mutations are refused over the socket: they go to POST /graphql. A browser's upgrade from an origin CORS does not
 * allow is refused before the handshake. The server pings every STREAM_HEARTBEAT_MS and drops a socket that did not
 * answer the last ping; at shutdown every socket closes with 1012 (service restart): clients reconnect.
 */
export function attachWebSocketServer(
  app: FastifyInstance,
  deps: StreamDependencies & {
    /** The API schema, which graphql-ws is handed with each operation (the seam has checked it already). */
    schema: GraphQLSchema;
    contextOf(viewer: Viewer): RequestContext;
    /** Origins a browser may open a socket from (CORS_ORIGINS); a client that sends none is not a browser. */
    allowedOrigins: readonly string[];
  },
): void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: QUERY_LIMITS.maxBodyBytes });
  let closing = false;

  useServer<Record<string, unknown> | undefined, SocketExtra>(
    {
      connectionInitWaitTimeout: 10_000,
      onConnect: async (ctx) => {
        const given = ctx.connectionParams?.authorization;
        const authorization = typeof given === 'string' ? given : ctx.extra.request.headers.authorization;
        try {
          ctx.extra.viewer = await deps.authenticate(authorization);
          ctx.extra.authorization = authorization;
          return true;
        } catch (error) {
          ctx.extra.socket.close(UNAUTHORIZED, (error as Error).message.slice(0, 120));
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        const { viewer, authorization, socket } = ctx.extra;
        const operation = {
          query: payload.query,
          variables: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
        };
        const opened = await openStream(deps, {
          operation,
          authorization,
          viewer: viewer!,
          context: deps.contextOf(viewer!),
          onServerEnd: () => socket.close(SERVICE_RESTART, 'The server is restarting; reconnect'),
        });
        if ('refused' in opened) return asGraphQLErrors(opened.refused.result);
        const stream: SocketStream = { results: opened.results, socket };
        return { schema: deps.schema, document: parse(payload.query), contextValue: stream };
      },
      subscribe: (args) => executionResults(args.contextValue as SocketStream),
    },
    sockets,
  );

  const heartbeat = setInterval(() => {
    for (const socket of sockets.clients) {
      const alive = socket as WebSocket & { answeredPing?: boolean };
      if (alive.answeredPing === false) {
        socket.terminate();
        continue;
      }
      alive.answeredPing = false;
      socket.ping();
    }
  }, env.STREAM_HEARTBEAT_MS);
  heartbeat.unref();
  sockets.on('connection', (socket: WebSocket & { answeredPing?: boolean }) => {
    socket.on('pong', () => (socket.answeredPing = true));
  });

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    const origin = request.headers.origin;
    const refuse = (status: string) =>
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    if (path !== WS_PATH) return refuse('404 Not Found');
    if (closing) return refuse('503 Service Unavailable');
    if (origin !== undefined && !deps.allowedOrigins.includes(origin)) return refuse('403 Forbidden');
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(heartbeat);
    for (const socket of sockets.clients) socket.close(SERVICE_RESTART, 'The server is restarting; reconnect');
    await new Promise<void>((resolve) => sockets.close(() => resolve()));
  });
  sockets.on('error', (error) => logger.warn({ err: error }, 'websocket server error'));
}
