import { connectionTypes } from '../platform/plans.ts';
import type { PlanRule } from '../platform/plans.ts';

/**
 * The markets subgraph's lines of the plan table (docs/api.md "Plans and limits"). A new field is named here,
 * or the gateway refuses to start: no field is open by omission.
 */
export const MARKETS_PLAN_RULES: readonly PlanRule[] = [
  { feature: 'Convergence leads', plan: 'professional', coordinates: ['Query.convergenceLeads', 'ConvergenceLead.*'] },
  // A profile's identity (ticker, name, sector, industry) is part of the public ticker search; the rest is enrichment.
  {
    feature: 'Company profiles (enrich)',
    plan: 'professional',
    coordinates: [
      'Query.companyProfile', 'CompanyProfile.marketCap', 'CompanyProfile.ceo', 'CompanyProfile.description',
      'CompanyProfile.website', 'CompanyProfile.employees', 'CompanyProfile.headquarters', 'CompanyProfile.cik',
      'CompanyProfile.updatedAt',
    ],
  },
  {
    feature: 'Signals, congressional trades, members, ticker search, watchlist, briefings, macro data',
    plan: 'analyst',
    coordinates: [
      'Query.signals', 'Query.tickerSignals', 'Query.signal', 'Query.signalsConnection', 'Signal.*', 'SignalPage.*',
      ...connectionTypes('Query', 'signalsConnection'),
      'Query.congressionalTrades', 'Query.congressionalTradesConnection', 'Query.congressionalTrade',
      'Query.congressionalTradesSummary', 'CongressionalTrade.*', 'CongressionalTradePage.*',
      ...connectionTypes('Query', 'congressionalTradesConnection'),
      'CongressionalTradeSummary.*', 'MemberTradeActivity.*', 'TickerTradeActivity.*',
      'Query.members', 'Query.member', 'Member.*', 'MemberMatch.*',
      'Query.ticker', 'Ticker.*', 'TickerSummary.*', 'Quote.*', 'CompanyProfile.*',
      'Query.watchlist', 'Query.watchlistPage', 'WatchlistEntry.*', 'WatchlistPage.*',
      'Mutation.addWatchlistEntry', 'Mutation.removeWatchlistEntry', 'AddWatchlistEntryPayload.*', 'RemoveWatchlistEntryPayload.*',
      'Query.briefings', 'Query.briefing', 'Briefing.*', 'BriefingPage.*', 'BriefingSummary.*',
      'Query.yieldCurve', 'YieldCurve.*', 'YieldCurvePoint.*', 'Query.macroIndicators', 'MacroIndicator.*',
      'Query.publicStats', 'PublicStats.*',
      // Reached only through a convergence lead, which carries the plan.
      'ConvergenceScoreBreakdown.*',
    ],
  },
];
