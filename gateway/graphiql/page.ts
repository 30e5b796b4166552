import { createHash } from 'node:crypto';

/** What the header editor starts with: the user pastes a key after `Bearer ` (`npm start` prints a demo key). */
export const HEADERS_PLACEHOLDER = JSON.stringify({ Authorization: 'Bearer ' }, null, 2);

/** The query editor's first text: how to start, and a query that answers without a key. */
export const HELP_TEXT = `# Data graph: GraphQL over business, real-estate, legal and market-intelligence records.
#
# 1. Open "Headers" below and put your API key after "Bearer " (\`npm start\` prints a demo key).
#    The schema and the docs (the book icon) reload when the headers change.
# 2. Without a key, only \`ticker\`, \`publicStats\` and introspection answer; the query below is one of them.
# 3. Run it with Ctrl-Enter or the ▶ button. Limits, errors and persisted queries: the API docs (docs/api.md).
{
  publicStats { congressionalTrades signals7d membersTracked tickersTracked lastUpdated }
}
`;

/** How long the header editor must be still before the schema is fetched again with its headers. */
const REFETCH_DELAY_MS = 600;

/**
 * Starts GraphiQL from the UMD bundle. Monaco's workers are classic scripts served by us too: without
 * `MonacoEnvironment.getWorker` Monaco would build worker URLs of its own. `onEditQuery` is replaced because
 * Yoga's default writes the query into the address bar, and a reload of /graphql?query=… is GraphQL over GET
 * rather than this page; GraphiQL keeps the query in localStorage anyway.
 *
 * The fetcher is ours: it leaves out an `Authorization` header with no credential after `Bearer` (the placeholder),
 * so the page opens as an anonymous caller, whose introspection is answered, instead of with a 401. GraphiQL
 * fetches the schema only when it starts or when its button is pressed; a change of the headers presses it, once
 * the editor is still, so the docs and completion follow the key.
 */
function startScript(assets: string): string {
  const config = { title: 'Data graph', headers: HEADERS_PLACEHOLDER, query: HELP_TEXT };
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
async function fetcher(params, options) {
  const headers = { ...(options && options.headers) };
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === 'authorization' && /^\\s*bearer\\s*$/i.test(String(headers[name]))) delete headers[name];
  }
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify(params),
  });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { errors: [{ message: 'HTTP ' + response.status + ': ' + text.slice(0, 200) }] };
  }
}
let introspectedHeaders = ${JSON.stringify(HEADERS_PLACEHOLDER)};
let refetchTimer;
function onEditHeaders(value) {
  clearTimeout(refetchTimer);
  refetchTimer = setTimeout(() => {
    try {
      JSON.parse(value || '{}');
    } catch {
      return;
    }
    if (value === introspectedHeaders) return;
    introspectedHeaders = value;
    document.querySelector('button[aria-label^="Re-fetch GraphQL schema"]')?.click();
  }, ${REFETCH_DELAY_MS});
}
YogaGraphiQL.renderYogaGraphiQL(document.getElementById('graphiql'), {
  ...${JSON.stringify(config)},
  fetcher,
  onEditHeaders,
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
