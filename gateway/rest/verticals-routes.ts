import { PAGE_INFO, recordList } from './envelopes.ts';
import type { OffsetPage } from './envelopes.ts';
import type { RestRoute } from './route.ts';

const PAGING = { page: 'page', per_page: 'perPage', sort: 'sort' };

// Aliases give the documented snake_case names, so most routes need no response mapping of their own.
const COMPANY_FIELDS = `id company: name industry revenue employees state decision_maker: decisionMaker
  title: decisionMakerTitle email: decisionMakerEmail ai_score: aiScore`;

/** The `/api/v1` routes of the verticals document (seeds/verticals-api.md). */
export const verticalsRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/b2b/companies',
    operation: `query Companies($industry: String, $state: String, $minScore: Int, $sort: CompanySort, $page: Int, $perPage: Int) {
      companies(industry: $industry, state: $state, minScore: $minScore, sort: $sort, page: $page, perPage: $perPage) {
        nodes { ${COMPANY_FIELDS} } ${PAGE_INFO}
      }
    }`,
    query: { industry: 'industry', state: 'state', min_score: 'minScore', ...PAGING },
    respond: (data) => recordList('b2b')(data.companies as OffsetPage<unknown>),
  },
];
