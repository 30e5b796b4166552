// The account dashboard (docs/account.md): one ES module, served as written, that fills /account's shell from
// /account/api/*. It builds every element with DOM calls (the page's Trusted Types policy refuses HTML strings),
// sends the CSRF token with every call that changes something, and never sees the session cookie (HttpOnly).

const SVG = 'http://www.w3.org/2000/svg';
const numbers = new Intl.NumberFormat('en');
const $ = (id) => document.getElementById(id);

/** The CSRF token of this browser's secret, from GET /account/api/session. */
let csrfToken = '';

class ApiFailure extends Error {
  constructor(status, body) {
    super(body?.message ?? `The service answered ${status}.`);
    this.status = status;
  }
}

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new ApiFailure(response.status, data);
  return data;
}

/** An element with attributes and children (strings become text nodes, never markup). */
function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

function say(message, kind = 'info') {
  const status = $('status');
  status.textContent = message;
  status.dataset.kind = kind;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : 'never');
const calls = (count, kind) => `${numbers.format(count)} ${kind} call${count === 1 ? '' : 's'}`;

/** Runs an action of the page; a 401 means the session ended, anything else is said in the status line. */
async function attempt(action) {
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401 && !$('signed-in').hidden) {
      // Reloading the signed-out view can fail too (the service is down): say that, never leave it unhandled.
      await load().then(
        () => say('Your session has ended: sign in again.', 'error'),
        (reloadError) => say(reloadError.message, 'error'),
      );
      return;
    }
    say(error.message, 'error');
  }
}

function showSignedOut(session) {
  $('signed-in').hidden = true;
  $('sign-out').hidden = true;
  $('signed-out').hidden = false;
  const open = session.signup === 'open';
  $('sign-up').hidden = !open;
  $('sign-up-closed').hidden = open;
}

function rateLimitText({ requests, per }) {
  if (requests === null) return 'unlimited';
  if (requests === 0) return 'no API access';
  return `${numbers.format(requests)} requests a ${per === 'minute' ? 'minute' : 'rolling 24 hours'}`;
}

function renderPlan(session) {
  const { plan } = session;
  const facts = [
    ['Signed in as', session.account.email],
    ['Plan', plan.name],
    ['Rate limit', rateLimitText(plan.rate_limit)],
    ['Live calls included per UTC day', numbers.format(plan.daily_allowance)],
    ['Each live call beyond that', String(plan.overage_price_per_call)],
    ['Signal history', plan.signal_history_days === null ? 'full' : `${plan.signal_history_days} days`],
    ['Sandbox keys', `${numbers.format(session.sandbox_credits_per_key)} trial calls each`],
  ];
  $('plan-facts').replaceChildren(
    ...facts.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]),
    el('dt', {}, 'Features'),
    el('dd', {}, el('ul', {}, ...plan.features.map((feature) => el('li', {}, feature)))),
  );
}

function keyRow(key) {
  const actions = el('td');
  if (!key.revoked_at) {
    const revoke = el('button', { type: 'button' }, 'Revoke');
    revoke.addEventListener('click', () => confirmRevoke(actions, key));
    actions.append(revoke);
  }
  return el(
    'tr',
    { 'data-key-id': key.id },
    el('td', {}, key.name),
    el('td', {}, key.mode),
    el('td', {}, el('code', {}, `${key.prefix}…`)),
    el('td', {}, when(key.created_at)),
    el('td', { class: 'last-used' }, when(key.last_used_at)),
    el('td', { class: 'number' }, numbers.format(key.calls_used)),
    el('td', { class: 'number' }, key.credits_remaining === null ? '—' : numbers.format(key.credits_remaining)),
    el('td', { class: 'key-status' }, key.revoked_at ? `revoked ${when(key.revoked_at)}` : 'active'),
    actions,
  );
}

/** Revoking cannot be undone, so it takes a second click in the row. */
function confirmRevoke(cell, key) {
  const yes = el('button', { type: 'button', class: 'danger' }, `Revoke ${key.name}`);
  const no = el('button', { type: 'button' }, 'Cancel');
  yes.addEventListener('click', () =>
    attempt(async () => {
      await api('DELETE', `/account/api/keys/${encodeURIComponent(key.id)}`);
      say(`Key ${key.prefix}… is revoked: calls with it are now refused.`);
      await loadKeys();
    }),
  );
  no.addEventListener('click', () => loadKeys());
  cell.replaceChildren(yes, no);
}

async function loadKeys() {
  const { keys } = await api('GET', '/account/api/keys');
  const rows = keys.map(keyRow);
  $('key-table')
    .querySelector('tbody')
    .replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: 9 }, 'No keys yet.'))]));
}

/** Thirty stacked bars (live below, sandbox above), one per UTC day, today last. */
function usageChart(days) {
  const width = 640;
  const height = 180;
  const left = 44;
  const bottom = 22;
  const top = 8;
  const slot = (width - left) / days.length;
  const highest = Math.max(1, ...days.map((day) => day.live + day.sandbox));
  const scale = (height - bottom - top) / highest;
  const total = days.reduce((sum, day) => sum + day.live + day.sandbox, 0);
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `${numbers.format(total)} calls in the last ${days.length} days`,
    },
    svg('line', { x1: left, x2: width, y1: height - bottom, y2: height - bottom, class: 'axis' }),
    svg('text', { x: left - 6, y: top + 10, 'text-anchor': 'end' }, numbers.format(highest)),
    svg('text', { x: left - 6, y: height - bottom, 'text-anchor': 'end' }, '0'),
    svg('text', { x: left, y: height - 4 }, days[0].date),
    svg('text', { x: width, y: height - 4, 'text-anchor': 'end' }, days.at(-1).date),
  );
  days.forEach((day, index) => {
    const x = left + index * slot + 2;
    const live = day.live * scale;
    const sandbox = day.sandbox * scale;
    chart.append(
      svg(
        'g',
        { class: 'day', 'data-day': day.date, 'data-live': day.live, 'data-sandbox': day.sandbox },
        svg('title', {}, `${day.date}: ${calls(day.live, 'live')}, ${calls(day.sandbox, 'sandbox')}`),
        // The whole column, so the title shows on days without calls too.
        svg('rect', { x, y: top, width: slot - 4, height: height - bottom - top, class: 'hit' }),
        svg('rect', { x, y: height - bottom - live, width: slot - 4, height: live, class: 'live' }),
        svg('rect', { x, y: height - bottom - live - sandbox, width: slot - 4, height: sandbox, class: 'sandbox' }),
      ),
    );
  });
  return chart;
}

async function loadUsage() {
  const { today, days } = await api('GET', '/account/api/usage');
  $('usage-today').textContent =
    `Today: ${calls(today.calls, 'live')} of ${numbers.format(today.allowance)} included` +
    (today.overage_calls > 0 ? `, ${numbers.format(today.overage_calls)} beyond (${today.overage_cost}).` : '.');
  $('usage-chart').replaceChildren(usageChart(days));
}

function deliveryTable(deliveries) {
  if (!deliveries.length) return el('p', { class: 'note' }, 'No deliveries yet.');
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el('tr', {}, ...['Event', 'Status', 'Response', 'Attempts', 'Created'].map((name) => el('th', {}, name))),
    ),
    el(
      'tbody',
      {},
      ...deliveries.map((delivery) =>
        el(
          'tr',
          {},
          el('td', {}, delivery.event_type),
          el('td', {}, delivery.status),
          el('td', {}, delivery.response_code === null ? (delivery.error ?? '—') : String(delivery.response_code)),
          el('td', { class: 'number' }, String(delivery.attempts)),
          el('td', {}, when(delivery.created_at)),
        ),
      ),
    ),
  );
}

async function loadWebhooks() {
  const webhooks = await api('GET', '/account/api/webhooks');
  const list = $('webhook-list');
  if (!webhooks.available) {
    list.replaceChildren(
      el(
        'p',
        { class: 'note' },
        `Webhooks are part of the ${webhooks.plan_required} plan. `,
        el('a', { href: '/billing' }, 'See the plans.'),
      ),
    );
    return;
  }
  if (!webhooks.endpoints.length) {
    list.replaceChildren(el('p', { class: 'note' }, 'No endpoints yet: add one with POST /api/webhooks.'));
    return;
  }
  list.replaceChildren(
    ...webhooks.endpoints.map((endpoint) =>
      el(
        'article',
        { class: 'endpoint' },
        el('h3', {}, el('code', {}, endpoint.url), ` (${endpoint.id})`),
        el(
          'p',
          {},
          endpoint.enabled ? 'enabled' : `disabled${endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}`,
          ` · events: ${endpoint.events.length ? endpoint.events.join(', ') : 'all'}`,
        ),
        deliveryTable(endpoint.recent_deliveries),
      ),
    ),
  );
}

async function showSignedIn(session) {
  $('signed-out').hidden = true;
  $('signed-in').hidden = false;
  $('sign-out').hidden = false;
  renderPlan(session);
  await Promise.all([loadKeys(), loadUsage(), loadWebhooks()]);
}

async function load() {
  const session = await api('GET', '/account/api/session');
  csrfToken = session.csrf_token;
  if (session.account) await showSignedIn(session);
  else showSignedOut(session);
}

function formValues(form) {
  return Object.fromEntries(new FormData(form).entries());
}

$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  attempt(async () => {
    await api('POST', '/account/api/login', formValues(event.target));
    event.target.reset();
    say('');
    await load();
  });
});

$('sign-up').addEventListener('submit', (event) => {
  event.preventDefault();
  attempt(async () => {
    await api('POST', '/account/api/signup', formValues(event.target));
    event.target.reset();
    say('Your account is ready.');
    await load();
  });
});

$('sign-out').addEventListener('click', () =>
  attempt(async () => {
    await api('POST', '/account/api/logout');
    $('new-key').hidden = true;
    $('new-key-value').textContent = '';
    say('Signed out.');
    await load();
  }),
);

$('create-key').addEventListener('submit', (event) => {
  event.preventDefault();
  attempt(async () => {
    const created = await api('POST', '/account/api/keys', formValues(event.target));
    $('new-key-value').textContent = created.key;
    $('new-key').hidden = false;
    $('copy-key').textContent = 'Copy';
    say(`Created ${created.mode} key ${created.name}.`);
    await loadKeys();
  });
});

$('copy-key').addEventListener('click', () =>
  attempt(async () => {
    await navigator.clipboard.writeText($('new-key-value').textContent);
    $('copy-key').textContent = 'Copied';
  }),
);

// The key leaves the page for good: the service keeps only its hash.
$('dismiss-key').addEventListener('click', () => {
  $('new-key-value').textContent = '';
  $('new-key').hidden = true;
});

attempt(load);
