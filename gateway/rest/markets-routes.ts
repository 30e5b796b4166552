import { bodyVariables } from './body-variables.ts';
import { fieldRoute } from './field-route.ts';
import { PAGE_INFO, offsetTotals } from './envelopes.ts';
import type { OffsetPage } from './envelopes.ts';
import type { RestRoute } from './route.ts';

/** How often a client syncing by GET /api/events should poll once it has caught up (`X-Poll-Interval`). */
export const EVENT_POLL_SECONDS = 5;

// Aliases give the documented snake_case names (docs/contract/market-intelligence-api.md); the shapes of the routes
// the document marks "not shown" are written down in docs/api.md, section Markets.
const SIGNAL_FIELDS = `id ticker company_name: companyName signal_type: signalType filing_type: filingType
  ai_summary: aiSummary materiality_score: materialityScore sentiment urgent source_url: sourceUrl
  created_at: createdAt`;

const TRADE_FIELDS = `id member_name: memberName bioguide_id: bioguideId party chamber ticker
  asset_description: assetDescription asset_type: assetType option_detail: optionDetail trade_type: tradeType owner
  amount_range: amountRange amount_low: amountLow amount_high: amountHigh trade_date: tradeDate
  disclosure_date: disclosureDate disclosure_lag_days: disclosureLagDays late source filing_url: filingUrl
  committee_overlap: committeeOverlap overlapping_committees: overlappingCommittees`;

const INSIDER_TRADE_FIELDS = `id ticker issuer_cik: issuerCik insider_name: insiderName insider_cik: insiderCik
  insider_title: insiderTitle security_title: securityTitle derivative transaction_date: transactionDate
  transaction_code: transactionCode shares price_per_share: pricePerShare acquired_disposed: acquiredDisposed
  shares_owned_after: sharesOwnedAfter direct_ownership: directOwnership rule_10b5_1: rule10b51
  accession_number: accessionNumber filing_url: filingUrl conversion_or_exercise_price: conversionOrExercisePrice
  exercise_date: exerciseDate expiration_date: expirationDate underlying_security_title: underlyingSecurityTitle
  underlying_shares: underlyingShares`;

const QUOTE_FIELDS = 'price change changePct as_of: asOf date previousClose previousDate';

const PROFILE_FIELDS =
  'companyName sector industry marketCap ceo description website employees headquarters founded cik updatedAt';

const YIELD_CURVE_FIELDS = `date y3m y2 y5 y10 y30 spread_2_10: spread2To10 inverted
  points { tenor_months: tenorMonths rate_pct: ratePct }`;

const WATCHLIST_FIELDS = `ticker company_name: companyName added_at: addedAt quote { ${QUOTE_FIELDS} }
  latest_signal: latestSignal { ${SIGNAL_FIELDS} } latest_congressional_trade: latestCongressionalTrade { ${TRADE_FIELDS} }`;

const watchlistEntryBody = bodyVariables(
  {
    ticker: { variable: 'ticker', type: 'string' },
    company_name: { variable: 'companyName', type: 'string' },
  },
  { into: 'input' },
);

/** `{signals, total, page, pages}`: the superset of both documented forms (docs/design.md), and `total_is_estimate`. */
function signalList(page: OffsetPage<unknown>) {
  return { signals: page.nodes, ...offsetTotals(page) };
}

/** `{trades, total, page, pages, count}`: the superset of both documented forms (docs/design.md), and `total_is_estimate`. */
function tradeList(page: OffsetPage<unknown>) {
  return { trades: page.nodes, ...offsetTotals(page), count: page.nodes.length };
}

const removeFromWatchlist = (method: 'GET' | 'DELETE'): RestRoute =>
  fieldRoute({
    method,
    path: '/api/watchlist/:ticker',
    field: 'removeWatchlistEntry',
    selection: 'ticker removed',
    respond: (data) => data.removeWatchlistEntry,
  });

/**
 * The `/api` routes of the market-intelligence document (docs/contract/market-intelligence-api.md). Each runs one
 * root field; its parameters are the field's arguments (rest/field-route.ts), named otherwise only where the
 * document does.
 */
export const marketsRoutes: RestRoute[] = [
  fieldRoute({
    path: '/api/signals',
    field: 'signals',
    selection: `nodes { ${SIGNAL_FIELDS} } ${PAGE_INFO}`,
    // Both documented names of the type filter are accepted (docs/design.md).
    alsoAccepted: { type: 'signalType' },
    respond: (data) => signalList(data.signals as OffsetPage<unknown>),
  }),
  fieldRoute({
    path: '/api/signals/ticker/:ticker',
    field: 'tickerSignals',
    selection: `nodes { ${SIGNAL_FIELDS} } ${PAGE_INFO}`,
    alongside: 'view: ticker(symbol: $ticker) { ticker }',
    respond: (data) => ({
      ticker: (data.view as { ticker: string }).ticker,
      ...signalList(data.tickerSignals as OffsetPage<unknown>),
    }),
  }),
  fieldRoute({
    path: '/api/signals/macro/yield-curve',
    field: 'yieldCurve',
    selection: YIELD_CURVE_FIELDS,
    respond: (data) => ({ yield_curve: data.yieldCurve }),
  }),
  fieldRoute({
    path: '/api/signals/macro/indicators',
    field: 'macroIndicators',
    selection: `series_id: seriesId name unit value date previous_value: previousValue previous_date: previousDate
      change`,
    respond: (data) => ({ indicators: data.macroIndicators }),
  }),
  fieldRoute({
    path: '/api/congressional-trades',
    field: 'congressionalTrades',
    selection: `nodes { ${TRADE_FIELDS} } ${PAGE_INFO}`,
    respond: (data) => tradeList(data.congressionalTrades as OffsetPage<unknown>),
  }),
  fieldRoute({
    path: '/api/insider-trades',
    field: 'insiderTrades',
    selection: `nodes { ${INSIDER_TRADE_FIELDS} } ${PAGE_INFO}`,
    // The congressional trades' list form: `{trades, total, page, pages, count}` (docs/api.md).
    respond: (data) => tradeList(data.insiderTrades as OffsetPage<unknown>),
  }),
  fieldRoute({
    path: '/api/congressional-trades/summary',
    field: 'congressionalTradesSummary',
    selection: `days from total_trades: totalTrades
      top_members: topMembers { bioguide_id: bioguideId member_name: memberName party chamber trades purchases sales }
      top_tickers: topTickers { ticker trades purchases sales members }`,
    respond: (data) => data.congressionalTradesSummary,
  }),
  fieldRoute({
    path: '/api/search',
    public: true,
    // Anonymous and analyst callers get the profile's fields the plan table leaves open; the rest are null.
    omitFieldsAbovePlan: true,
    field: 'ticker',
    operationName: 'TickerSearch',
    renamed: { q: 'symbol' },
    selection: `ticker found profile { ${PROFILE_FIELDS} } quote { ${QUOTE_FIELDS} }
      summary { signals_total: signalsTotal signals_bullish: signalsBullish signals_bearish: signalsBearish
        signals_neutral: signalsNeutral congress_trades: congressTrades congress_buys: congressBuys
        congress_sells: congressSells }
      signals { ${SIGNAL_FIELDS} }
      congressional_trades: congressionalTrades { ${TRADE_FIELDS} }`,
    respond: (data) => data.ticker,
  }),
  fieldRoute({
    path: '/api/search/members',
    field: 'members',
    operationName: 'MemberSearch',
    selection: `similarity
      member { bioguide_id: bioguideId name first_name: firstName last_name: lastName party chamber state district
        committees trades_count: tradesCount }`,
    respond: (data) => {
      const matches = data.members as { similarity: number; member: Record<string, unknown> }[];
      return {
        members: matches.map((match) => ({ ...match.member, similarity: match.similarity })),
        count: matches.length,
      };
    },
  }),
  fieldRoute({
    path: '/api/leads/convergence',
    field: 'convergence',
    extraVariables: {
      evidence: {
        type: 'Boolean = false',
        description: 'Include each lead’s newest purchases and signals (most of a larger answer).',
      },
    },
    selection: `window { from to days basis signals_from: signalsFrom signals_until: signalsUntil }
      leads {
        ticker company_name: companyName congress_buys: congressBuys total_signals: totalSignals
        bullish_signals: bullishSignals bearish_signals: bearishSignals purchase_amount: purchaseAmount
        congress_members: congressMembers score score_breakdown: scoreBreakdown { members purchases signals }
        first_purchase_date: firstPurchaseDate last_purchase_date: lastPurchaseDate last_signal_at: lastSignalAt
        purchases @include(if: $evidence) { id member_name: memberName bioguide_id: bioguideId party chamber trade_date: tradeDate
          disclosure_date: disclosureDate amount_range: amountRange amount_low: amountLow amount_high: amountHigh }
        signals @include(if: $evidence) { id signal_type: signalType sentiment materiality_score: materialityScore created_at: createdAt ai_summary: aiSummary }
      }`,
    // The documented `{leads}`, with the window the leads were counted over beside it. Each lead's evidence
    // (its newest purchases and signals) is most of the answer's bytes and time: it comes with `evidence=true`.
    respond: (data) => {
      const { window, leads } = data.convergence as { window: unknown; leads: unknown };
      return { leads, window };
    },
  }),
  fieldRoute({
    path: '/api/watchlist',
    field: 'watchlistPage',
    alias: 'watchlist',
    selection: `nodes { ${WATCHLIST_FIELDS} } ${PAGE_INFO}`,
    // `{watchlist, count}` as before (count: entries in this page, as for trades) with the list totals beside.
    respond: (data) => {
      const page = data.watchlist as OffsetPage<unknown>;
      return { watchlist: page.nodes, count: page.nodes.length, ...offsetTotals(page) };
    },
  }),
  fieldRoute({
    method: 'POST',
    path: '/api/watchlist',
    field: 'addWatchlistEntry',
    selection: `created entry { ${WATCHLIST_FIELDS} }`,
    // JSON types checked here, so a wrong one is a 400 naming the field as sent; the rules stay in the resolver.
    body: watchlistEntryBody,
    createdWhen: (data) => (data.addWatchlistEntry as { created: boolean }).created,
    respond: (data) => {
      const { created, entry } = data.addWatchlistEntry as { created: boolean; entry: Record<string, unknown> };
      return { ...entry, created };
    },
  }),
  // The document removes with GET; DELETE does the same (docs/design.md).
  removeFromWatchlist('GET'),
  removeFromWatchlist('DELETE'),
  fieldRoute({
    path: '/api/enrich/:ticker',
    field: 'companyProfile',
    operationName: 'Enrich',
    selection: `ticker company_name: companyName sector industry market_cap: marketCap ceo description website
      employees headquarters founded cik updated_at: updatedAt`,
    respond: (data) => data.companyProfile,
  }),
  fieldRoute({
    path: '/api/briefings',
    field: 'briefings',
    selection: `nodes { date headline signals_count: signalsCount trades_count: tradesCount url } ${PAGE_INFO}`,
    respond: (data) => {
      const page = data.briefings as OffsetPage<unknown>;
      return { briefings: page.nodes, ...offsetTotals(page) };
    },
  }),
  fieldRoute({
    path: '/api/briefings/:date',
    field: 'briefing',
    selection: 'html',
    contentType: 'text/html; charset=utf-8',
    respond: (data) => (data.briefing as { html: string }).html,
  }),
  fieldRoute({
    path: '/api/events',
    field: 'events',
    selection: 'events { id cursor type timestamp data } has_more: hasMore next_cursor: nextCursor',
    // Newest last, for sync: read on at once while `has_more`, then poll no faster than this with the cursor.
    headers: { 'x-poll-interval': String(EVENT_POLL_SECONDS) },
    etag: true,
    // Each event as its webhook delivers it ({type, timestamp, data}), with its id and cursor beside.
    respond: (data) => {
      const page = data.events as { events: unknown[]; has_more: boolean; next_cursor: string | null };
      return { events: page.events, has_more: page.has_more, next_cursor: page.next_cursor };
    },
  }),
  fieldRoute({
    path: '/api/stats/public',
    public: true,
    field: 'publicStats',
    selection: `congressional_trades: congressionalTrades signals_7d: signals7d members_tracked: membersTracked
      tickers_tracked: tickersTracked last_updated: lastUpdated`,
    respond: (data) => data.publicStats,
  }),
  fieldRoute({
    path: '/api/stats/sources',
    public: true,
    field: 'sources',
    selection: `source cadence last_attempt: lastAttempt last_status: lastStatus last_error: lastError
      last_success: lastSuccess newest_record: newestRecord records next_run: nextRun stale`,
    respond: (data) => ({ sources: data.sources }),
  }),
];
