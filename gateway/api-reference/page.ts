import { createHash } from 'node:crypto';

/** Where the page finds its files: Swagger UI's (versioned path) and the start-up module and styles of our own. */
export interface ReferenceAssets {
  /** `/docs/assets/<swagger-ui version>`: swagger-ui.css, swagger-ui-bundle.js, the licences. */
  path: string;
  init: string;
  styles: string;
}

/**
 * Swagger UI's options. `validatorUrl: null`: by default the UI sends the document's URL to
 * validator.swagger.io for a badge. `persistAuthorization: false`: a key typed into "Authorize" lives in the
 * tab's memory only, never in localStorage. `queryConfigEnabled: false`: `?url=` cannot make the page load
 * another document. The base layout has no top bar, whose field would load documents from elsewhere.
 */
const SWAGGER_UI_OPTIONS = {
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
  queryConfigEnabled: false,
  withCredentials: false,
  displayRequestDuration: true,
  filter: true,
};

/** The start-up module: a script file of its own (served beside Swagger UI), so the CSP allows no inline script. */
export const INIT_SCRIPT = `'use strict';
window.ui = window.SwaggerUIBundle({
  ...${JSON.stringify(SWAGGER_UI_OPTIONS)},
  presets: [window.SwaggerUIBundle.presets.apis],
});
`;

export const STYLES = `body { margin: 0; }
.reference-footer { font-family: sans-serif; font-size: 12px; color: #3b4151; max-width: 1460px;
  margin: 0 auto; padding: 16px 20px 32px; box-sizing: border-box; }
`;

/** A short content hash for the file name of our own files: a new version is a new URL, so they cache for good. */
export function contentName(base: string, extension: string, text: string): string {
  return `${base}.${createHash('sha256').update(text).digest('hex').slice(0, 12)}.${extension}`;
}

/**
 * Everything comes from this service: scripts and styles, and every request the page makes (the document and
 * "Try it out" calls). Swagger UI draws its icons as data: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function buildReferencePage(assets: ReferenceAssets): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Data graph</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.path}/swagger-ui.css">
<link rel="stylesheet" href="${assets.path}/${assets.styles}">
</head>
<body>
<div id="swagger-ui"></div>
<footer class="reference-footer">
The OpenAPI document: <a href="/openapi.json">/openapi.json</a>. GraphQL: <a href="/graphql">/graphql</a>.
Rendered with Swagger UI (Apache License 2.0: <a href="${assets.path}/LICENSE">licence</a>,
<a href="${assets.path}/NOTICE">notice</a>, <a href="${assets.path}/swagger-ui-bundle.js.LICENSE.txt">bundled
libraries</a>).
</footer>
<script src="${assets.path}/swagger-ui-bundle.js"></script>
<script src="${assets.path}/${assets.init}"></script>
</body>
</html>
`;
}
