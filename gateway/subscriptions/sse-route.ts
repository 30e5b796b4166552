import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { refusalOf } from '../access/operation-guard.ts';
import { failedOutcome } from '../execution/outcome.ts';
import type { ExecutionOutcome } from '../execution/outcome.ts';
import type { OperationRequest } from '../execution/execution.ts';
import type { StreamedResult } from '../execution/subscription.ts';
import { QUERY_LIMITS } from '../limits/policy.ts';
import { openStream } from './open-stream.ts';
import type { StreamDependencies } from './open-stream.ts';

/** GraphQL over SSE, distinct connections mode: one subscription per request. */
export const SSE_PATH = '/graphql/stream';
/** How long a client waits before it reconnects after the server ended its stream (SSE `retry:`, ms). */
const RECONNECT_MS = 1_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation of a GET (query string, `variables` as JSON) or a POST (JSON body), or a 400. */
function operationOf(request: FastifyRequest): OperationRequest {
  const source = (request.method === 'GET' ? request.query : request.body) as Record<string, unknown> | undefined;
  let variables = source?.variables;
  if (typeof variables === 'string') {
    try {
      variables = JSON.parse(variables) as unknown;
    } catch {
      throw new BadRequestError({ variables: 'must be a JSON object' });
    }
  }
  const { query, operationName } = source ?? {};
  if (typeof query !== 'string' || !query) throw new BadRequestError({ query: 'is required' });
  if (variables != null && !isRecord(variables)) throw new BadRequestError({ variables: 'must be a JSON object' });
  if (operationName != null && typeof operationName !== 'string') {
    throw new BadRequestError({ operationName: 'must be a string' });
  }
  return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/**
 * The credential: the Authorization header, or `access_token` in the query string for a browser's `EventSource`,
 * which cannot send headers (docs/events.md says what that costs: the key is in the URL, so it is never logged).
 */
export function streamAuthorization(request: FastifyRequest): string | undefined {
  if (request.headers.authorization !== undefined) return request.headers.authorization;
  const token = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof token === 'string' ? `Bearer ${token}` : undefined;
}

const sendRefusal = (reply: FastifyReply, { status, headers, result }: ExecutionOutcome) => {
  for (const [name, value] of headers) reply.header(name, value);
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(result));
};

/** One SSE message: `event` and `data` as graphql-sse's protocol has them, the event's cursor as its `id`. */
const message = (event: 'next' | 'complete', data: string, id?: string) =>
  `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${data}\n\n`;

/** How long a client may leave its socket full before the stream is cut (it resumes with Last-Event-ID). */
export const STALLED_CLIENT_MS = 30_000;

/** Whether `raw` can take more within `ms` (false: still full, or closed). */
const drained = (raw: NodeJS.WritableStream, ms: number) =>
  new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      raw.off('drain', onDrain);
      raw.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    raw.on('drain', onDrain);
    raw.on('close', onClose);
  });

const resultData = ({ result, cursor }: StreamedResult) =>
  JSON.stringify(cursor ? { ...result, extensions: { ...result.extensions, cursor } } : result);

/**
 * `GET` and `POST /graphql/stream`: GraphQL over Server-Sent Events in graphql-sse's distinct connections mode
 * (its client, and a plain `EventSource` listening for `next`, read it). Each result is an `event: next` whose
 * `id:` is the event's cursor, so a browser that reconnects sends it back as `Last-Event-ID` and the stream resumes
 * after it; `event: complete` ends a stream the server finished. graphql-sse's own handler is not used: it gives
 * no way to set a message's `id`, which resuming needs, nor to write heartbeats or a reconnect hint.
 *
 * Refusals before the stream (a bad document, the plan, the stream bounds) are plain JSON with their status. A
 * heartbeat comment every STREAM_HEARTBEAT_MS keeps proxies from closing a quiet stream. A client whose socket
 * stays full for STALLED_CLIENT_MS is cut off (it resumes with Last-Event-ID); until then nothing more is read for
 * it, so its events wait in the log, not in memory (subgraphs/markets/events/event-stream.ts). At
 * shutdown each stream gets a comment and `retry:`, and closes without `complete`: its client reconnects.
 */
export function registerSseRoute(
  app: FastifyInstance,
  deps: StreamDependencies & { contextFor(request: FastifyRequest): RequestContext },
): void {
  const heartbeatMs = env.STREAM_HEARTBEAT_MS;
  const authenticate = async (request: FastifyRequest) => {
    request.viewer = await deps.authenticate(streamAuthorization(request));
  };

  async function stream(request: FastifyRequest, reply: FastifyReply) {
    let operation: OperationRequest;
    try {
      operation = operationOf(request);
    } catch (error) {
      return sendRefusal(reply, failedOutcome(refusalOf(error as BadRequestError)));
    }
    const lastEventId = request.headers['last-event-id'];
    const context = {
      ...deps.contextFor(request),
      resumeAfter: typeof lastEventId === 'string' ? lastEventId : undefined,
    };
    const raw = reply.raw;
    const opened = await openStream(deps, {
      operation,
      authorization: streamAuthorization(request),
      viewer: request.viewer!,
      context,
      onServerEnd: () => {
        raw.end(`: the server is shutting down; reconnect\nretry: ${RECONNECT_MS}\n\n`);
      },
    });
    if ('refused' in opened) return sendRefusal(reply, opened.refused);
    const { results } = opened;

    reply.hijack();
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and its kind buffer responses unless told not to.
      'x-accel-buffering': 'no',
    });
    raw.write(`retry: ${RECONNECT_MS}\n\n`);
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), heartbeatMs);
    raw.on('close', () => {
      clearInterval(heartbeat);
      void results.return();
    });
    try {
      for await (const result of results) {
        if (raw.writableEnded) break;
        // A client that does not read fills its socket; what waits here is one result, never more.
        if (
          !raw.write(message('next', resultData(result), result.cursor)) &&
          !(await drained(raw, STALLED_CLIENT_MS))
        ) {
          raw.destroy();
          break;
        }
      }
      if (!raw.writableEnded) raw.end(message('complete', ''));
    } catch (error) {
      request.log.error({ err: error }, 'event stream failed');
      raw.destroy();
    } finally {
      clearInterval(heartbeat);
    }
    return reply;
  }

  const config = { selfMetered: true };
  app.get(SSE_PATH, { config, onRequest: authenticate }, stream);
  app.post(SSE_PATH, { config, onRequest: authenticate, bodyLimit: QUERY_LIMITS.maxBodyBytes }, stream);
}
