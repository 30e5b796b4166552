import type { RestRoute } from '../../gateway/rest/route.ts';
import { marketsRoutes } from '../../gateway/rest/markets-routes.ts';
import { verticalsRoutes } from '../../gateway/rest/verticals-routes.ts';
import { webhookRoutes } from '../../gateway/rest/webhook-routes.ts';

/** One route the suite attacks, with every parameter and body field a client may send to it. */
export interface AttackedRoute {
  method: RestRoute['method'];
  path: string;
  public: boolean;
  query: string[];
  params: string[];
  /** JSON body fields (write routes); empty for a route without a body. */
  body: string[];
  /** GraphQL operation and variable names behind the route (REST shims only). */
  operation?: string;
  variables: string[];
  /** Tables a refused request must leave as they were. */
  writes: readonly WrittenTable[];
}

export type WrittenTable =
  'leads' | 'watchlist_entries' | 'report_jobs' | 'api_keys' | 'accounts' | 'webhook_endpoints' | 'webhook_deliveries';

const WEBHOOK_BODY = ['url', 'events', 'filters', 'description', 'enabled'];

/**
 * Body fields of the REST write routes. The tables turn a body into variables with a function, so the fields
 * are listed here; routes-catalog coverage is asserted by the suite (a new write route fails it until listed).
 */
export const BODY_FIELDS: Record<string, { fields: string[]; writes: WrittenTable[] }> = {
  'POST /api/v1/leads': { fields: ['record_id', 'notes', 'tags'], writes: ['leads'] },
  'PATCH /api/v1/leads/:id': { fields: ['status', 'notes', 'tags'], writes: ['leads'] },
  'DELETE /api/v1/leads/:id': { fields: [], writes: ['leads'] },
  'POST /api/v1/reports/generate': {
    fields: ['vertical', 'record_type', 'filters', 'format', 'fields'],
    writes: ['report_jobs'],
  },
  'POST /api/watchlist': { fields: ['ticker', 'company_name'], writes: ['watchlist_entries'] },
  'GET /api/watchlist/:ticker': { fields: [], writes: ['watchlist_entries'] },
  'DELETE /api/watchlist/:ticker': { fields: [], writes: ['watchlist_entries'] },
  'POST /api/webhooks': { fields: WEBHOOK_BODY, writes: ['webhook_endpoints', 'webhook_deliveries'] },
  'PATCH /api/webhooks/:id': { fields: WEBHOOK_BODY, writes: ['webhook_endpoints', 'webhook_deliveries'] },
  'DELETE /api/webhooks/:id': { fields: [], writes: ['webhook_endpoints', 'webhook_deliveries'] },
  'POST /api/webhooks/:id/rotate': { fields: [], writes: ['webhook_endpoints'] },
  'POST /api/webhooks/:id/test': { fields: [], writes: ['webhook_deliveries'] },
  'POST /api/webhooks/:id/verify': { fields: [], writes: ['webhook_deliveries'] },
  'POST /api/webhooks/:id/deliveries/:delivery/retry': { fields: [], writes: ['webhook_deliveries'] },
  'POST /api/webhooks/:id/replay': { fields: [], writes: ['webhook_deliveries'] },
};

/** Routes outside the REST tables: account routes, usage, the report download. */
const OTHER_ROUTES: AttackedRoute[] = [
  {
    method: 'POST',
    path: '/api/auth/login',
    public: true,
    query: [],
    params: [],
    body: ['email', 'password'],
    variables: [],
    writes: ['accounts', 'api_keys'],
  },
  {
    method: 'POST',
    path: '/api/keys',
    public: false,
    query: [],
    params: [],
    body: ['name', 'mode'],
    variables: [],
    writes: ['api_keys'],
  },
  { method: 'GET', path: '/api/keys', public: false, query: [], params: [], body: [], variables: [], writes: [] },
  {
    method: 'DELETE',
    path: '/api/keys/:id',
    public: false,
    query: [],
    params: ['id'],
    body: [],
    variables: [],
    writes: ['api_keys'],
  },
  { method: 'GET', path: '/api/v1/usage', public: false, query: [], params: [], body: [], variables: [], writes: [] },
  {
    method: 'GET',
    path: '/api/v1/usage/daily',
    public: false,
    query: ['days'],
    params: [],
    body: [],
    variables: [],
    writes: [],
  },
  {
    method: 'GET',
    path: '/api/v1/reports/:id/download',
    public: false,
    query: [],
    params: ['id'],
    body: [],
    variables: [],
    writes: [],
  },
];

export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

function attacked(route: RestRoute): AttackedRoute {
  const written = BODY_FIELDS[routeKey(route)];
  return {
    method: route.method,
    path: route.path,
    public: route.public ?? false,
    query: Object.keys(route.query ?? {}),
    params: Object.keys(route.params ?? {}),
    body: written?.fields ?? [],
    operation: route.operation,
    variables: [...new Set([...Object.values(route.query ?? {}), ...Object.values(route.params ?? {})])],
    writes: written?.writes ?? [],
  };
}

/** The REST routes as the tables declare them. */
export const REST_ROUTES: readonly RestRoute[] = [...verticalsRoutes, ...marketsRoutes, ...webhookRoutes];

/** Every route with its parameters: the route tables, then the account routes and /api/v1/usage. */
export const ATTACKED_ROUTES: readonly AttackedRoute[] = [...REST_ROUTES.map(attacked), ...OTHER_ROUTES];

/** Routes that change something: the suite counts the rows of their tables around a refused request. */
export const WRITE_ROUTES = ATTACKED_ROUTES.filter((route) => route.writes.length > 0);
