import type { FastifyInstance } from 'fastify';
import { CSS, JAVASCRIPT, PLAIN_TEXT, installedPackage, registerPackageAssets } from '../http/package-assets.ts';
import type { Asset } from '../http/package-assets.ts';
import { CONTENT_SECURITY_POLICY, INIT_SCRIPT, STYLES, buildReferencePage, contentName } from './page.ts';

const { dir: packageDir, version } = installedPackage('swagger-ui-dist');

const ASSETS_PATH = `/docs/assets/${version}`;
const INIT = contentName('reference', 'js', INIT_SCRIPT);
const STYLESHEET = contentName('reference', 'css', STYLES);

/** Public name → file of swagger-ui-dist (its self-contained bundle, styles and licences), and our own two files. */
const ASSETS: Record<string, Asset> = {
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: JAVASCRIPT },
  'swagger-ui.css': { file: 'swagger-ui.css', type: CSS },
  // The bundle's first line points here, and the Apache License asks that the licence and notice travel along.
  'swagger-ui-bundle.js.LICENSE.txt': { file: 'swagger-ui-bundle.js.LICENSE.txt', type: PLAIN_TEXT },
  LICENSE: { file: 'LICENSE', type: PLAIN_TEXT },
  NOTICE: { file: 'NOTICE', type: PLAIN_TEXT },
  [INIT]: { text: INIT_SCRIPT, type: JAVASCRIPT },
  [STYLESHEET]: { text: STYLES, type: CSS },
};

const html = buildReferencePage({ path: ASSETS_PATH, init: INIT, styles: STYLESHEET });

/**
 * GET /docs: the API reference (Swagger UI over GET /openapi.json) with "Try it out" against this service,
 * public like GraphiQL's page. The key typed into "Authorize" goes only to this origin (connect-src 'self').
 */
export function registerApiReference(app: FastifyInstance) {
  app.get('/docs', { config: { public: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .send(html),
  );
  registerPackageAssets(app, { path: ASSETS_PATH, dir: packageDir, assets: ASSETS });
}
