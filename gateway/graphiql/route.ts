import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildGraphiQLPage } from './page.ts';

/** A browser navigating to /graphql asks for HTML and gets GraphiQL; API clients get GraphQL over GET. */
export function wantsGraphiQL(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown>;
  return request.method === 'GET' && !query.query && (request.headers.accept ?? '').includes('text/html');
}

const packageJson = createRequire(import.meta.url).resolve('@graphql-yoga/graphiql/package.json');
const packageDir = dirname(packageJson);
const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };

/** The version is part of the path, so the files can be cached for good and an upgrade still reaches browsers. */
const ASSETS_PATH = `/graphql/assets/${version}`;

/** Public name → file in the package's self-contained build (GraphiQL, React and Monaco in one UMD script). */
const ASSETS: Record<string, { file: string; type: string }> = {
  'graphiql.js': { file: 'dist/yoga-graphiql.umd.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { file: 'dist/graphiql.css', type: 'text/css; charset=utf-8' },
  'editor.worker.js': { file: 'dist/monacoeditorwork/editor.worker.bundle.js', type: 'text/javascript; charset=utf-8' },
  'graphql.worker.js': {
    file: 'dist/monacoeditorwork/graphql.worker..bundle.js',
    type: 'text/javascript; charset=utf-8',
  },
  'json.worker.js': { file: 'dist/monacoeditorwork/json.worker.bundle.js', type: 'text/javascript; charset=utf-8' },
};

const page = buildGraphiQLPage(ASSETS_PATH);

export function graphiqlPage(): string {
  return page.html;
}

/**
 * The files are several megabytes (the script alone is 5 MB, 1.3 MB gzipped) and never change while the process
 * runs: read and compress each once, on first use, and keep both forms.
 */
const loaded = new Map<string, Promise<{ raw: Buffer; gzipped: Buffer }>>();
function load(file: string) {
  let entry = loaded.get(file);
  if (!entry) {
    entry = readFile(join(packageDir, file)).then(async (raw) => ({ raw, gzipped: await promisify(gzip)(raw) }));
    entry.catch(() => loaded.delete(file));
    loaded.set(file, entry);
  }
  return entry;
}

/** GraphiQL's page and assets, served from the installed package (there is no CDN to load them from). */
export function registerGraphiQLAssets(app: FastifyInstance) {
  app.get<{ Params: { name: string } }>(
    `${ASSETS_PATH}/:name`,
    { config: { public: true } },
    async (request, reply) => {
      const asset = Object.hasOwn(ASSETS, request.params.name) ? ASSETS[request.params.name] : undefined;
      if (!asset) return reply.callNotFound();
      const { raw, gzipped } = await load(asset.file);
      const acceptsGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
      reply
        .type(asset.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('vary', 'accept-encoding')
        .header('x-content-type-options', 'nosniff');
      if (acceptsGzip) reply.header('content-encoding', 'gzip');
      return reply.send(acceptsGzip ? gzipped : raw);
    },
  );

  // server.ts sends the page from its GET /graphql route; its security headers are added here, next to the page.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url !== '/graphql' || !wantsGraphiQL(request)) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    reply
      .header('content-security-policy', page.contentSecurityPolicy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache');
    return payload;
  });
}
