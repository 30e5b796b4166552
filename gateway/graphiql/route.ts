import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSS, JAVASCRIPT, installedPackage, registerPackageAssets } from '../http/package-assets.ts';
import type { Asset } from '../http/package-assets.ts';
import { buildGraphiQLPage } from './page.ts';

/** A browser navigating to /graphql asks for HTML and gets GraphiQL; API clients get GraphQL over GET. */
export function wantsGraphiQL(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown>;
  return request.method === 'GET' && !query.query && (request.headers.accept ?? '').includes('text/html');
}

const { dir: packageDir, version } = installedPackage('@graphql-yoga/graphiql');

/** The version is part of the path, so the files can be cached for good and an upgrade still reaches browsers. */
const ASSETS_PATH = `/graphql/assets/${version}`;

/** Public name → file in the package's self-contained build (GraphiQL, React and Monaco in one UMD script). */
const ASSETS: Record<string, Asset> = {
  'graphiql.js': { file: 'dist/yoga-graphiql.umd.js', type: JAVASCRIPT },
  'graphiql.css': { file: 'dist/graphiql.css', type: CSS },
  'editor.worker.js': { file: 'dist/monacoeditorwork/editor.worker.bundle.js', type: JAVASCRIPT },
  'graphql.worker.js': { file: 'dist/monacoeditorwork/graphql.worker..bundle.js', type: JAVASCRIPT },
  'json.worker.js': { file: 'dist/monacoeditorwork/json.worker.bundle.js', type: JAVASCRIPT },
};

const page = buildGraphiQLPage(ASSETS_PATH);

export function graphiqlPage(): string {
  return page.html;
}

/** GraphiQL's page and assets, served from the installed package (there is no CDN to load them from). */
export function registerGraphiQLAssets(app: FastifyInstance) {
  registerPackageAssets(app, { path: ASSETS_PATH, dir: packageDir, assets: ASSETS });

  // server.ts sends the page from its GET /graphql route; its security headers are added here, next to the page.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url !== '/graphql' || !wantsGraphiQL(request)) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    reply
      .header('content-security-policy', page.contentSecurityPolicy)
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache');
    return payload;
  });
}
