/**
 * What the bench measures. REST scenarios are a table: a route added later by anyone needs one line per filter
 * shape here (main.ts names the GET routes without path parameters of gateway/rest/*-routes.ts that have none).
 */
export interface RestScenario {
  path: string;
  /** documented example, selective filter, unselective (no filter), deep page. */
  kind: 'documented' | 'selective' | 'unselective' | 'deep page';
  query: string;
}

const COMPANIES = '/api/v1/b2b/companies';
const CONTACTS = '/api/v1/b2b/contacts';
const PROPERTIES = '/api/v1/realestate/properties';
const OWNERS = '/api/v1/realestate/owners';
const ATTORNEYS = '/api/v1/legal/attorneys';
const FIRMS = '/api/v1/legal/firms';
const SIGNALS = '/api/signals';
const TRADES = '/api/congressional-trades';

export const REST_SCENARIOS: RestScenario[] = [
  { path: COMPANIES, kind: 'documented', query: 'industry=software&state=CA&min_score=80' },
  { path: COMPANIES, kind: 'selective', query: 'industry=utilities&state=VT&min_score=90' },
  { path: COMPANIES, kind: 'unselective', query: '' },
  { path: COMPANIES, kind: 'deep page', query: 'industry=software&page=200&per_page=50' },
  { path: CONTACTS, kind: 'selective', query: 'seniority=c_level&department=finance' },
  { path: CONTACTS, kind: 'unselective', query: '' },
  { path: CONTACTS, kind: 'deep page', query: 'page=200&per_page=50' },
  { path: PROPERTIES, kind: 'documented', query: 'min_equity=50&state=FL' },
  { path: PROPERTIES, kind: 'unselective', query: '' },
  { path: PROPERTIES, kind: 'deep page', query: 'state=CA&page=200&per_page=50' },
  { path: OWNERS, kind: 'selective', query: 'state=VT&absentee=true' },
  { path: OWNERS, kind: 'unselective', query: '' },
  { path: ATTORNEYS, kind: 'documented', query: 'practice_area=Bankruptcy&state=NY' },
  { path: ATTORNEYS, kind: 'unselective', query: '' },
  { path: ATTORNEYS, kind: 'deep page', query: 'page=200&per_page=50' },
  { path: FIRMS, kind: 'unselective', query: '' },
  { path: SIGNALS, kind: 'documented', query: 'signal_type=insider_buy&limit=5' },
  { path: SIGNALS, kind: 'unselective', query: '' },
  { path: SIGNALS, kind: 'deep page', query: 'page=100&limit=50' },
  { path: TRADES, kind: 'documented', query: 'chamber=senate&party=D' },
  { path: TRADES, kind: 'unselective', query: '' },
  // Searches carry a per-account field limit (30 a minute, docs/api.md): under load most answers are 429s.
  { path: '/api/v1/search', kind: 'selective', query: 'q=acme' },
  // A last name: whole-word matches in four record types, each capped at 100 candidates (docs/api.md).
  { path: '/api/v1/search', kind: 'unselective', query: 'q=walker' },
  { path: '/api/search', kind: 'documented', query: 'q=AAPL' },
  { path: '/api/search/members', kind: 'selective', query: 'q=lang' },
  { path: '/api/v1/leads', kind: 'unselective', query: '' },
  { path: '/api/congressional-trades/summary', kind: 'unselective', query: '' },
  { path: '/api/leads/convergence', kind: 'unselective', query: '' },
  { path: '/api/watchlist', kind: 'unselective', query: '' },
  { path: '/api/briefings', kind: 'unselective', query: '' },
  { path: '/api/signals/macro/yield-curve', kind: 'unselective', query: '' },
  { path: '/api/signals/macro/indicators', kind: 'unselective', query: '' },
  { path: '/api/stats/public', kind: 'unselective', query: '' },
  { path: '/api/stats/sources', kind: 'unselective', query: '' },
  { path: '/api/insider-trades', kind: 'unselective', query: '' },
  { path: '/api/insider-trades', kind: 'selective', query: 'transaction_code=P' },
  { path: '/api/insider-trades', kind: 'deep page', query: 'page=100&limit=50' },
  // The bench account's report jobs: none, so this measures the route and an empty count.
  { path: '/api/v1/reports', kind: 'unselective', query: '' },
];

/** How a scenario is named in the results: its kind, and its query when it has one. */
export const scenarioDetail = (scenario: RestScenario) =>
  `${scenario.kind}${scenario.query ? `: ${scenario.query}` : ''}`;

/** The companies page every layer serves in the side-by-side: the documented example of the REST route. */
export const LAYER_PAGE = 'industry=software&state=CA&min_score=80';
export const LAYER_VARIABLES = { industry: 'software', state: 'CA', minScore: 80 };

/** The federated query of the issue: companies from verticals with contacts, and signals from markets. */
export const FEDERATED_QUERY = `query Federated {
  companies(industry: "software", state: "CA", minScore: 80, perPage: 25) {
    nodes { id name ticker contacts { name } signals(limit: 3) { id } }
    pageInfo { total }
  }
}`;

/**
 * The federated lines' two conditions (docs/performance.md): sharing on, every request from one account, so
 * identical subgraph queries in flight share one execution (each gateway's default); sharing off
 * (DEDUPLICATE_IN_FLIGHT=off, Hive Gateway's `deduplicateInflightRequests: false`), every request from another
 * account: every request is work.
 */
export const SHARING_ON = 'federated query, sharing on';
export const SHARING_OFF = 'federated query, sharing off';
