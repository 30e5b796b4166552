import { builder } from '../builder.ts';
import { companyIdByTicker } from '../company-ids.ts';
import { CompanyRef } from './company.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { ConvergenceLead } from './convergence.ts';
import { InsiderTrade } from './insider-trade.ts';
import { Signal } from './signal.ts';
import { Ticker } from './ticker.ts';
import { WatchlistEntry } from './watchlist.ts';
import { reads } from '../../platform/selected-fields.ts';

/**
 * The way back from market data to the business vertical: each market record that names a ticker links to the
 * verticals Company carrying that ticker (and so to its decision makers): the lowest-id company with that ticker,
 * or null. Markets finds the id (company-ids.ts, one query per response) and answers a reference by it, which the
 * verticals subgraph resolves (docs/design.md, "Two-way joins").
 */
const description = 'The business-vertical company with this ticker (lowest id if several); null if none.';

for (const ref of [CongressionalTrade, Signal, Ticker, ConvergenceLead, WatchlistEntry, InsiderTrade]) {
  builder.objectField(ref, 'company', (t) =>
    t.field({
      type: CompanyRef,
      nullable: true,
      description,
      extensions: reads('ticker'),
      resolve: async (record: { ticker: string | null }, _args, context) => {
        const id = record.ticker ? await companyIdByTicker(context).load(record.ticker) : null;
        return id ? { id } : null;
      },
    }),
  );
}
