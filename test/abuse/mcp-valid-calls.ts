/** Stands for a value the run makes first with its own key: a lead it saved, a report it queued, a ticker it watches. */
export const OWN_LEAD = Symbol('own lead');
export const OWN_REPORT = Symbol('own report');
export const WATCHED_TICKER = Symbol('watched ticker');
/** Stands for a company of the sandbox data (its id), found when the file starts. */
export const A_COMPANY = Symbol('a company');

export type ValidCall = Record<string, unknown>;

/**
 * Arguments each tool answers with a success on the sandbox data, one set per variant (or kind of call): the fuzz
 * replaces one argument at a time with a hostile value, so the rest of the call reaches the route. A tool missing
 * here fails the suite's catalog test.
 */
export const VALID_CALLS: Record<string, readonly ValidCall[]> = {
  search_records: [{ q: 'software' }, { q: 'a', verticals: 'b2b,legal', per_page: 5 }],
  records: [
    { type: 'companies', per_page: 5 },
    { type: 'companies', id: A_COMPANY },
    { type: 'contacts', per_page: 5 },
    { type: 'properties', per_page: 5 },
    { type: 'owners', per_page: 5 },
    { type: 'attorneys', per_page: 5 },
    { type: 'firms', per_page: 5 },
  ],
  leads: [
    { action: 'list' },
    { action: 'save', record_id: A_COMPANY, notes: 'call back', tags: ['warm'] },
    { action: 'get', id: OWN_LEAD },
    { action: 'update', id: OWN_LEAD, status: 'contacted' },
    { action: 'delete', id: OWN_LEAD },
  ],
  reports: [
    { action: 'list' },
    { action: 'generate', vertical: 'b2b', format: 'json' },
    { action: 'get', id: OWN_REPORT },
  ],
  congressional_trades: [{ limit: 5 }, { view: 'summary', days: 365 }],
  insider_trades: [{ limit: 5 }],
  signals: [{ limit: 5 }],
  members: [{ q: 'a', limit: 5 }],
  ticker: [{ ticker: 'NVDA' }, { view: 'profile', ticker: 'NVDA' }, { view: 'signals', ticker: 'NVDA', limit: 5 }],
  convergence: [{ limit: 5 }],
  briefings: [{ limit: 5 }],
  macro: [{}, { view: 'indicators' }],
  watchlist: [{ action: 'list' }, { action: 'add', ticker: 'NVDA' }, { action: 'remove', ticker: WATCHED_TICKER }],
  data_status: [{}, { view: 'sources' }],
  graphql: [
    { query: '{ publicStats { signals7d } }' },
    { query: 'query ($q: String!) { search(q: $q) { nodes { id } } }', variables: { q: 'software' } },
  ],
};
