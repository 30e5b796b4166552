import { builder } from '../builder.ts';
import { CompanyRef } from './company.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { ConvergenceLead } from './convergence.ts';
import { InsiderTrade } from './insider-trade.ts';
import { Signal } from './signal.ts';
import { Ticker } from './ticker.ts';
import { WatchlistEntry } from './watchlist.ts';

/**
 * The way back from market data to the business vertical: each market record that names a ticker links to the
 * verticals Company carrying that ticker (and so to its decision makers). Markets answers a reference by ticker
 * (`{ ticker }`); the verticals subgraph resolves it through its `ticker` key, in one batch per response, to the
 * lowest-id company with that ticker, or null (docs/design.md, "Two-way joins").
 */
const description = 'The business-vertical company with this ticker (lowest id if several); null if none.';

/** A reference the verticals subgraph resolves by ticker; no ticker, no company. */
const byTicker = (ticker: string | null) => (ticker ? { ticker } : null);

for (const ref of [CongressionalTrade, Signal, Ticker, ConvergenceLead, WatchlistEntry, InsiderTrade]) {
  builder.objectField(ref, 'company', (t) =>
    t.field({
      type: CompanyRef,
      nullable: true,
      description,
      resolve: (record: { ticker: string | null }) => byTicker(record.ticker),
    }),
  );
}
