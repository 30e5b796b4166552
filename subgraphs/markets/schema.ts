import { builder } from './builder.ts';
import './types/company.ts';
import './types/signal.ts';
import './types/member.ts';
import './types/congressional-trade.ts';
import './types/committee-overlap.ts';
import './types/insider-trade.ts';
import './types/ticker.ts';
import './types/company-profile.ts';
import './types/convergence.ts';
import './types/watchlist.ts';
import './types/macro.ts';
import './types/briefing.ts';
import './types/public-stats.ts';
import './types/sources.ts';
import './types/trade-summary.ts';
import './types/company-links.ts';
import './types/event-feed.ts';
import './types/event-subscriptions.ts';
import './webhooks/schema.ts';

/** The markets subgraph: signals, congressional trades, tickers, watchlists, briefings and macro data. */
export const marketsSchema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
