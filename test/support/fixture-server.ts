import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';

/** An answer given instead of the content (a 429 with Retry-After, a 503, an HTML error page). */
export interface FixtureAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * What the server does for one path. The content is a `file`, a `body`, or a `stream` made for each request
 * (announced with `length` when given, chunked otherwise); the rest are behaviours of a real, imperfect source.
 */
export interface FixtureRoute {
  file?: string;
  body?: string | Buffer;
  stream?: () => AsyncIterable<Buffer>;
  length?: number;
  contentType?: string;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Default for a file or a body: a strong ETag of the bytes; `false` sends none. */
  etag?: string | false;
  /** Default for a file: its modification time; for a body: none. `false` sends none. */
  lastModified?: Date | false;
  /** Compressed with gzip when the client accepts it. */
  gzip?: boolean;
  /** Answers given one per request, in order, before the content is served (then the content, every time). */
  before?: FixtureAnswer[];
  /** A slow body: `bytes` bytes every `everyMs`. */
  trickle?: { bytes: number; everyMs: number };
  /** A cut connection: the whole length announced, this many bytes sent, then the socket destroyed. */
  cutAfter?: number;
  /** The socket destroyed before any answer: a network error. */
  reset?: boolean;
  /** A 302 to this path or URL. */
  redirect?: string;
}

/** One request as the server saw it; `completed` is set when the answer ends (false: the connection was cut). */
export interface FixtureRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** `Date.now()` when the request arrived. */
  at: number;
  status?: number;
  completed?: boolean;
}

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  /** The routes by path (`/a/b.json`, or with its query, `/fred?id=X`); may be changed while the server runs. */
  routes: Record<string, FixtureRoute>;
  requests: FixtureRequest[];
  requestsTo(path: string): FixtureRequest[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.idx': 'text/plain',
  '.txt': 'text/plain',
};

/**
 * A real HTTP server on 127.0.0.1, port 0, standing in for the public sources: serves its `routes` (and, for other
 * paths, the files under `root` when given) with ETag / Last-Modified and 304s, and misbehaves per route as told.
 * Every request is recorded, so tests count retries and measure the rate from the server's side.
 */
export async function startFixtureServer(
  routes: Record<string, FixtureRoute> = {},
  options: { root?: string } = {},
): Promise<FixtureServer> {
  const requests: FixtureRequest[] = [];
  const served = new Map<string, number>();

  async function routeOf(url: string): Promise<FixtureRoute | undefined> {
    const path = url.split('?')[0]!;
    const route = routes[url] ?? routes[path];
    if (route || !options.root) return route;
    const file = join(options.root, normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, ''));
    return (await stat(file).catch(() => undefined))?.isFile() ? { file } : undefined;
  }

  async function answer(request: IncomingMessage, response: ServerResponse, route: FixtureRoute): Promise<void> {
    const key = request.url!;
    const count = served.get(key) ?? 0;
    served.set(key, count + 1);
    const early = route.before?.[count];
    if (early) {
      response.writeHead(early.status, { 'content-type': 'text/plain', ...early.headers }).end(early.body ?? '');
      return;
    }
    if (route.reset) {
      request.socket.destroy();
      return;
    }
    if (route.redirect) {
      response.writeHead(302, { location: route.redirect }).end();
      return;
    }
    const type = route.contentType ?? CONTENT_TYPES[extname(route.file ?? '')] ?? 'application/octet-stream';
    const headers: Record<string, string> = { 'content-type': type, ...route.headers };
    const bytes = route.file
      ? await readFile(route.file)
      : route.body !== undefined
        ? Buffer.from(route.body)
        : undefined;
    const etag = route.etag ?? (bytes ? `"${createHash('sha1').update(bytes).digest('hex')}"` : false);
    const modified = route.lastModified ?? (route.file ? (await stat(route.file)).mtime : false);
    if (etag) headers.etag = etag;
    if (modified) headers['last-modified'] = modified.toUTCString();
    if (etag && matchesEtag(request.headers['if-none-match'], etag)) {
      response.writeHead(304, headers).end();
      return;
    }
    const since = Date.parse(request.headers['if-modified-since'] ?? '');
    if (modified && !request.headers['if-none-match'] && since >= Math.floor(modified.getTime() / 1000) * 1000) {
      response.writeHead(304, headers).end();
      return;
    }
    const gzip = route.gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    if (gzip) headers['content-encoding'] = 'gzip';
    const status = route.status ?? 200;
    if (bytes) {
      const body = gzip ? gzipSync(bytes) : bytes;
      headers['content-length'] = String(body.length);
      response.writeHead(status, headers);
      if (request.method === 'HEAD') return void response.end();
      if (route.cutAfter !== undefined) {
        response.write(body.subarray(0, route.cutAfter));
        // Flushed first, so the client holds part of the body when the connection goes.
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      if (route.trickle) return trickle(response, body, route.trickle);
      response.end(body);
      return;
    }
    if (!route.stream) throw new Error(`the route for ${key} has no content`);
    if (route.length !== undefined && !gzip) headers['content-length'] = String(route.length);
    response.writeHead(status, headers);
    const source = Readable.from(route.stream());
    await pipeline(gzip ? [source, createGzip(), response] : [source, response]).catch(() => undefined);
  }

  const server = createServer((request, response) => {
    const record: FixtureRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
      at: Date.now(),
    };
    requests.push(record);
    response.on('close', () => {
      record.status = response.statusCode;
      record.completed = response.writableFinished;
    });
    routeOf(record.path)
      .then((route) =>
        route
          ? answer(request, response, route)
          : void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
      )
      .catch((error: Error) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(error.message);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    routes,
    requests,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return !!header && (header.trim() === '*' || header.split(',').some((tag) => bare(tag) === bare(etag)));
}

function trickle(response: ServerResponse, body: Buffer, pace: { bytes: number; everyMs: number }): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return void clearInterval(timer);
    response.write(body.subarray(sent, sent + pace.bytes));
    sent += pace.bytes;
    if (sent >= body.length) {
      clearInterval(timer);
      response.end();
    }
  }, pace.everyMs);
  response.on('close', () => clearInterval(timer));
}
