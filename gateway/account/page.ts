import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The dashboard's files, read once: one ES module and one stylesheet, served as written (no build step). The
 * version in their path is a hash of both, so browsers may cache them for good and still get a change at once.
 */
const FILES = {
  'dashboard.js': { type: 'text/javascript; charset=utf-8' },
  'account.css': { type: 'text/css; charset=utf-8' },
} as const;

export type AssetName = keyof typeof FILES;

const contents = Object.fromEntries(
  Object.keys(FILES).map((name) => [name, readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8')]),
) as Record<AssetName, string>;

const version = createHash('sha256').update(Object.values(contents).join('\0')).digest('hex').slice(0, 12);

export const ASSETS_PATH = `/account/assets/${version}`;

export function asset(name: string): { body: string; type: string } | undefined {
  if (!Object.hasOwn(FILES, name)) return undefined;
  return { body: contents[name as AssetName], type: FILES[name as AssetName].type };
}

/**
 * Our own script, style and requests only: no inline code at all, no other origin, no forms posted by the
 * browser (the module sends them), no framing. Trusted Types: the module builds the page with DOM calls, so
 * no string ever becomes HTML or script.
 */
export const PAGE_SECURITY_HEADERS = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types',
  ].join('; '),
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const;

/** The page's shell; dashboard.js fills it from /account/api/*. */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Account · Data graph</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/account.css">
<script type="module" src="${ASSETS_PATH}/dashboard.js"></script>
</head>
<body>
<header class="top">
  <h1>Data graph · Account</h1>
  <nav><a href="/billing">Plans</a> <button id="sign-out" type="button" hidden>Sign out</button></nav>
</header>
<main>
<p id="status" role="status" aria-live="polite"></p>

<section id="signed-out" hidden>
  <form id="sign-in" class="card" method="post">
    <h2>Sign in</h2>
    <label>E-mail <input name="email" type="email" autocomplete="username" required></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Sign in</button>
  </form>
  <form id="sign-up" class="card" method="post" hidden>
    <h2>Create an account</h2>
    <label>E-mail <input name="email" type="email" autocomplete="username" required></label>
    <label>Password, at least 8 characters
      <input name="password" type="password" autocomplete="new-password" minlength="8" required></label>
    <button type="submit">Create account</button>
  </form>
  <p id="sign-up-closed" class="note" hidden>New accounts are made by the operator of this service.</p>
</section>

<div id="signed-in" hidden>
  <section class="card" aria-labelledby="plan-title">
    <h2 id="plan-title">Plan and limits</h2>
    <dl id="plan-facts"></dl>
    <p><a href="/billing">Compare plans and upgrade</a></p>
  </section>

  <section class="card" aria-labelledby="keys-title">
    <h2 id="keys-title">API keys</h2>
    <form id="create-key" method="post">
      <label>Name <input name="name" maxlength="100" value="default" required></label>
      <label>Mode <select name="mode"><option value="live">live</option><option value="sandbox">sandbox</option></select></label>
      <button type="submit">Create key</button>
    </form>
    <div id="new-key" class="new-key" hidden>
      <p>Your new key. Copy it now: it is shown only this once.</p>
      <p><code id="new-key-value"></code></p>
      <button id="copy-key" type="button">Copy</button>
      <button id="dismiss-key" type="button">Done</button>
    </div>
    <table id="key-table">
      <thead><tr><th>Name</th><th>Mode</th><th>Key</th><th>Created</th><th>Last used</th><th>Calls</th>
        <th>Sandbox credits left</th><th>Status</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody></tbody>
    </table>
  </section>

  <section class="card" aria-labelledby="usage-title">
    <h2 id="usage-title">Usage, last 30 days (UTC)</h2>
    <p id="usage-today"></p>
    <div id="usage-chart"></div>
    <p class="legend"><span class="swatch live"></span> live calls <span class="swatch sandbox"></span> sandbox calls</p>
  </section>

  <section class="card" aria-labelledby="webhooks-title">
    <h2 id="webhooks-title">Webhooks</h2>
    <div id="webhook-list"></div>
  </section>
</div>
</main>
</body>
</html>
`;
