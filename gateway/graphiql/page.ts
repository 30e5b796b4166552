import { createHash } from 'node:crypto';

/** What the header editor starts with: the user replaces the placeholder with their key (`npm start` prints a demo key). */
export const HEADERS_PLACEHOLDER = JSON.stringify({ Authorization: 'Bearer <your key>' }, null, 2);

/**
 * Starts GraphiQL from the UMD bundle. Monaco's workers are classic scripts served by us too: without
 * `MonacoEnvironment.getWorker` Monaco would build worker URLs of its own. `onEditQuery` is replaced because
 * Yoga's default writes the query into the address bar, and a reload of /graphql?query=… is GraphQL over GET
 * (which needs a key) rather than this page; GraphiQL keeps the query in localStorage anyway.
 */
function startScript(assets: string): string {
  const config = { endpoint: '/graphql', title: 'Data graph', headers: HEADERS_PLACEHOLDER };
  const workers = {
    graphql: `${assets}/graphql.worker.js`,
    json: `${assets}/json.worker.js`,
    editor: `${assets}/editor.worker.js`,
  };
  return `
globalThis.MonacoEnvironment = {
  getWorker(_id, label) {
    const workers = ${JSON.stringify(workers)};
    return new Worker(workers[label] || workers.editor, { name: label });
  },
};
YogaGraphiQL.renderYogaGraphiQL(document.getElementById('graphiql'), {
  ...${JSON.stringify(config)},
  onEditQuery() {},
});
`;
}

/** The page and the Content-Security-Policy that allows exactly it: our own scripts, workers and requests. */
export function buildGraphiQLPage(assets: string): { html: string; contentSecurityPolicy: string } {
  const script = startScript(assets);
  const scriptHash = createHash('sha256').update(script).digest('base64');
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src 'self' 'sha256-${scriptHash}'`,
    "worker-src 'self'",
    "connect-src 'self'",
    // React and Monaco set inline styles; GraphiQL's fonts are data: URLs inside its CSS.
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · Data graph</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql"></div>
<script src="${assets}/graphiql.js"></script>
<script>${script}</script>
</body>
</html>
`;
  return { html, contentSecurityPolicy };
}
