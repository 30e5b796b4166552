import DataLoader from 'dataloader';
import { loaderFor } from '../platform/context.ts';
import type { RequestContext } from '../platform/context.ts';
import { companyIds } from '../platform/ids.ts';

/**
 * The id of the company a ticker points at, for a market record's way back to the business vertical (a trade,
 * signal or lead knows only the ticker). Both subgraphs share one database, so the lookup is made here and the
 * reference sent to the verticals subgraph is by `id`, the key every company has: a reference by a nullable key
 * is one gateways may not send. Several companies may carry one ticker (customer-loaded records): the lowest id
 * wins, so the answer is the same on every request; null when none does. All tickers of a response: one query.
 *
 * No cache: a repeated ticker (two trades in one company) must resolve in the same tick as the rest, so the
 * company's own batches (contacts) still go out once per page.
 */
export function companyIdByTicker(context: RequestContext) {
  return loaderFor(
    context,
    'markets:companyIdByTicker',
    () =>
      new DataLoader<string, string | null>(
        async (tickers) => {
          const rows = await context.db.sql.query<{ ticker: string; id: number }>(
            'SELECT ticker, min(id) AS id FROM companies WHERE ticker = ANY($1::text[]) GROUP BY ticker',
            [[...new Set(tickers)]],
          );
          const idOf = new Map(rows.map((row) => [row.ticker, companyIds.format(row.id)]));
          return tickers.map((ticker) => idOf.get(ticker) ?? null);
        },
        { cache: false },
      ),
  );
}
