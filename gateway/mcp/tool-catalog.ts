import { RECORD_TYPES } from '../../subgraphs/index.ts';

/** A documented route, as `METHOD /path` with the path as the REST tables write it (`/api/watchlist/:ticker`). */
export type RouteKey = `${'GET' | 'POST' | 'PATCH' | 'DELETE'} /${string}`;

/** An argument value that picks a variant: a selector's value, or `PRESENT` for "the argument is given". */
export const PRESENT = Symbol('present');

/** One route a tool runs, and the arguments that pick it (the first variant whose `when` holds is run). */
export interface ToolVariant {
  route: RouteKey;
  when: Record<string, string | typeof PRESENT>;
  /** Tool arguments that feed a parameter of another name (the ticker search's `q` is the tool's `ticker`). */
  renamed?: Record<string, string>;
}

/**
 * An MCP tool: one action over one or more documented routes. Its input and output schemas are not written
 * here: they come from the routes' OpenAPI descriptions (tool-schemas.ts), so a tool cannot drift from its route.
 */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The argument that picks the variant (`view`, `action`, `type`), with its default when it may be left out. */
  selector?: { name: string; description: string; default?: string };
  variants: ToolVariant[];
  /** Whether a call changes stored data (MCP's `readOnlyHint` is the opposite). */
  writes?: boolean;
}

const one = (route: RouteKey): ToolVariant[] => [{ route, when: {} }];

/** `companies` → `GET /api/v1/b2b/companies`, and its `/:id` form. */
const recordVariants: ToolVariant[] = RECORD_TYPES.flatMap((type): ToolVariant[] => {
  const path = `/api/v1/${type.vertical}/${type.name}` as const;
  return [
    { route: `GET ${path}/:id` as RouteKey, when: { type: type.name, id: PRESENT } },
    { route: `GET ${path}` as RouteKey, when: { type: type.name } },
  ];
});

/**
 * The tools, about fifteen (clients cap what they show a model at 40-50, and a model chooses worse among many):
 * one per data area, grouped by action, each a thin front of routes the REST API documents.
 */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'search_records',
    title: 'Search all records',
    description:
      'Full-text search across every vertical at once: business companies and their decision-maker contacts, ' +
      'real-estate properties and owners, attorneys and law firms. Answers ranked hits (vertical, type, id, title, ' +
      'subtitle, score); pass a hit’s id and type to `records` for the whole record.',
    variants: one('GET /api/v1/search'),
  },
  {
    name: 'records',
    title: 'List or fetch records',
    description:
      'One record type of the verticals: with `id`, that record (ids are prefixed, as search returns them); ' +
      'without, a filtered, sorted page of the type. Decision makers are `contacts` (filter by `company_id` and ' +
      '`seniority`); owners’ properties are `properties` with `owner_id`; a firm’s attorneys are `attorneys` with ' +
      '`firm_id`. Filters apply to the types that name them in their description.',
    selector: { name: 'type', description: 'The record type.' },
    variants: recordVariants,
  },
  {
    name: 'leads',
    title: 'Saved leads',
    description:
      'The caller’s saved leads: list them (filter by status, vertical, tag), get one, save a record as a lead ' +
      '(`record_id`, notes, tags), update its status, notes or tags, or delete it.',
    selector: { name: 'action', description: 'What to do.', default: 'list' },
    variants: [
      { route: 'GET /api/v1/leads', when: { action: 'list' } },
      { route: 'GET /api/v1/leads/:id', when: { action: 'get' } },
      { route: 'POST /api/v1/leads', when: { action: 'save' } },
      { route: 'PATCH /api/v1/leads/:id', when: { action: 'update' } },
      { route: 'DELETE /api/v1/leads/:id', when: { action: 'delete' } },
    ],
    writes: true,
  },
  {
    name: 'reports',
    title: 'Report jobs',
    description:
      'Queued exports of a vertical’s records as CSV or JSON: generate one (it runs in the background), list the ' +
      'caller’s jobs, or follow one by id until `status` is `completed`; its `download_url` then serves the file.',
    selector: { name: 'action', description: 'What to do.', default: 'list' },
    variants: [
      // `fields` is every tool's projection: the report's columns are `report_fields`.
      { route: 'POST /api/v1/reports/generate', when: { action: 'generate' }, renamed: { report_fields: 'fields' } },
      { route: 'GET /api/v1/reports', when: { action: 'list' } },
      { route: 'GET /api/v1/reports/:id', when: { action: 'get' } },
    ],
    writes: true,
  },
  {
    name: 'congressional_trades',
    title: 'Congressional trades',
    description:
      'Stock trades that members of Congress disclosed (STOCK Act): filter by member (a partial name, typos ' +
      'tolerated), ticker, chamber (house, senate), party, trade type (purchase, sale, …), committee and trade ' +
      'dates (`from`/`to` as YYYY-MM-DD, or the last `days`). Newest first. `view: summary` gives the most active ' +
      'members and tickers over the last `days` instead.',
    selector: { name: 'view', description: 'The trades themselves, or counts of them.', default: 'trades' },
    variants: [
      { route: 'GET /api/congressional-trades', when: { view: 'trades' } },
      { route: 'GET /api/congressional-trades/summary', when: { view: 'summary' } },
    ],
  },
  {
    name: 'insider_trades',
    title: 'Insider trades (Form 4)',
    description:
      'Transactions that company insiders reported on SEC Form 4: filter by ticker, insider (a partial name), ' +
      'transaction code (P purchase, S sale, A grant, M option exercise, …) and transaction dates. Options and ' +
      'other derivatives carry their exercise price, dates and underlying shares.',
    variants: one('GET /api/insider-trades'),
  },
  {
    name: 'signals',
    title: 'Market signals',
    description:
      'Scored events from SEC 8-K filings, insider buying and selling, earnings previews and macro releases, newest ' +
      'first: filter by ticker, signal type and sentiment. Each has a summary, a materiality score (0-100), its ' +
      'sentiment and the source document’s URL. A plan sees its own span of history.',
    variants: one('GET /api/signals'),
  },
  {
    name: 'members',
    title: 'Members of Congress',
    description:
      'Finds members of Congress by name (partial, either order, typos tolerated; a title such as Sen. or Rep. ' +
      'narrows the chamber): their bioguide id, party, chamber, state, committees and number of trades.',
    variants: one('GET /api/search/members'),
  },
  {
    name: 'ticker',
    title: 'A ticker’s picture',
    description:
      'One stock by its ticker symbol: `overview` (the default) gives its profile, latest close, signal and trade ' +
      'counts and its newest signals and congressional trades; `profile` the company profile (sector, industry, ' +
      'market cap, CEO, CIK); `signals` a page of its signals.',
    selector: { name: 'view', description: 'Which picture of the ticker.', default: 'overview' },
    variants: [
      { route: 'GET /api/search', when: { view: 'overview' }, renamed: { ticker: 'q' } },
      { route: 'GET /api/enrich/:ticker', when: { view: 'profile' } },
      { route: 'GET /api/signals/ticker/:ticker', when: { view: 'signals' } },
    ],
  },
  {
    name: 'convergence',
    title: 'Convergence leads',
    description:
      'Tickers where congressional buying and bullish signals meet within a window, scored by members, purchases ' +
      'and signals. `evidence: true` adds each lead’s purchases and signals (larger answers); `as_of` looks back ' +
      'from a past date.',
    variants: one('GET /api/leads/convergence'),
  },
  {
    name: 'briefings',
    title: 'Daily briefings',
    description:
      'The daily market briefings: without `date`, a page of them (date, headline, counts); with `date` ' +
      '(YYYY-MM-DD), that day’s briefing as HTML.',
    variants: [
      { route: 'GET /api/briefings/:date', when: { date: PRESENT } },
      { route: 'GET /api/briefings', when: {} },
    ],
  },
  {
    name: 'macro',
    title: 'Yield curve and macro indicators',
    description:
      'The US Treasury yield curve (`view: yield_curve`, the default: 3-month to 30-year rates, the 2-10 spread ' +
      'and whether it is inverted, for the latest or a given `date`) or the latest macro indicators (`view: ' +
      'indicators`: each series’ value, previous value and change).',
    selector: { name: 'view', description: 'Which macro data.', default: 'yield_curve' },
    variants: [
      { route: 'GET /api/signals/macro/yield-curve', when: { view: 'yield_curve' } },
      { route: 'GET /api/signals/macro/indicators', when: { view: 'indicators' } },
    ],
  },
  {
    name: 'watchlist',
    title: 'Watchlist',
    description:
      'The caller’s watchlist of tickers, each with its latest close, signal and congressional trade: list it, ' +
      'add a ticker, or remove one.',
    selector: { name: 'action', description: 'What to do.', default: 'list' },
    variants: [
      { route: 'GET /api/watchlist', when: { action: 'list' } },
      { route: 'POST /api/watchlist', when: { action: 'add' } },
      { route: 'DELETE /api/watchlist/:ticker', when: { action: 'remove' } },
    ],
    writes: true,
  },
  {
    name: 'data_status',
    title: 'Coverage and freshness',
    description:
      'What the data covers and how fresh it is: `view: coverage` (the default) counts trades, signals, members and ' +
      'tickers; `view: sources` gives each source’s cadence, last run, newest record and whether it is stale.',
    selector: { name: 'view', description: 'Which status.', default: 'coverage' },
    variants: [
      { route: 'GET /api/stats/public', when: { view: 'coverage' } },
      { route: 'GET /api/stats/sources', when: { view: 'sources' } },
    ],
  },
];

const WEBHOOKS = 'Webhook endpoints are delivery configuration: an agent has no URL to receive them on.';
const KEYS = 'Key management acts on credentials, which an agent must not hand itself.';

/**
 * The documented routes no tool runs, each with the reason; a test fails for a route in neither list, so a new
 * route gets a tool or a reason.
 */
export const ROUTES_WITHOUT_TOOL: Readonly<Record<RouteKey, string>> = {
  'GET /api/watchlist/:ticker':
    'The documented GET form of removing from the watchlist; `watchlist` removes by DELETE.',
  'POST /api/auth/login': 'Signing in is for people; an agent holds an API key.',
  'GET /api/events':
    'A feed for programs that sync by cursor; an agent asks the data tools, which read the same records.',
  'GET /api/keys': KEYS,
  'POST /api/keys': KEYS,
  'DELETE /api/keys/:id': KEYS,
  'GET /api/v1/usage': 'Every tool result carries the caller’s usage in its `_meta`.',
  'GET /api/v1/usage/daily': 'Usage history is for the account’s owner (the dashboard, REST).',
  'GET /api/v1/reports/:id/download': 'A file, not an answer for a context window: `reports` gives its download URL.',
  'GET /api/webhooks': WEBHOOKS,
  'POST /api/webhooks': WEBHOOKS,
  'GET /api/webhooks/:id': WEBHOOKS,
  'PATCH /api/webhooks/:id': WEBHOOKS,
  'DELETE /api/webhooks/:id': WEBHOOKS,
  'POST /api/webhooks/:id/rotate': WEBHOOKS,
  'POST /api/webhooks/:id/test': WEBHOOKS,
  'POST /api/webhooks/:id/verify': WEBHOOKS,
  'GET /api/webhooks/:id/deliveries': WEBHOOKS,
  'POST /api/webhooks/:id/deliveries/:delivery/retry': WEBHOOKS,
  'POST /api/webhooks/:id/replay': WEBHOOKS,
};
