import { builder } from './builder.ts';
import './types/company.ts';
import './types/signal.ts';

/** The markets subgraph: signals, congressional trades, tickers, watchlists, briefings and macro data. */
export const marketsSchema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
