import { PAGE_INFO } from './envelopes.ts';
import type { OffsetPage } from './envelopes.ts';
import type { RestRoute } from './route.ts';

const SIGNAL_FIELDS = `id ticker company_name: companyName signal_type: signalType filing_type: filingType
  ai_summary: aiSummary materiality_score: materialityScore sentiment urgent source_url: sourceUrl
  created_at: createdAt`;

/** `{signals, total, page, pages}`: the superset of both documented forms (DESIGN.md). */
function signalList(page: OffsetPage<unknown>) {
  return {
    signals: page.nodes,
    total: page.pageInfo.total,
    page: page.pageInfo.page,
    pages: page.pageInfo.totalPages,
  };
}

/** The `/api` routes of the market-intelligence document (seeds/market-intelligence-api.md). */
export const marketsRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/signals',
    operation: `query Signals($ticker: String, $signalType: SignalType, $sentiment: Sentiment, $page: Int, $limit: Int) {
      signals(ticker: $ticker, signalType: $signalType, sentiment: $sentiment, page: $page, limit: $limit) {
        nodes { ${SIGNAL_FIELDS} } ${PAGE_INFO}
      }
    }`,
    // Both documented names of the type filter are accepted (DESIGN.md).
    query: { ticker: 'ticker', signal_type: 'signalType', type: 'signalType', sentiment: 'sentiment', page: 'page', limit: 'limit' },
    respond: (data) => signalList(data.signals as OffsetPage<unknown>),
  },
];
