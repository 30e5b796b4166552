import DataLoader from 'dataloader';
import type { Company } from '../../../prisma/generated/client/client.ts';
import { loaderFor } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';

/**
 * The company a ticker points at, for references by ticker from market data (a trade, signal or lead knows only
 * the ticker). Several companies may carry one ticker (customer-loaded records): the lowest id wins, so the answer
 * is the same on every request; null when none does. All tickers of one response cost two queries.
 *
 * No cache: a repeated ticker (two trades in one company) must resolve in the same tick as the rest. A cache hit
 * resolves a few microtasks later, which is after Pothos has sent its batch for the company's relations (contacts),
 * so it cost one more query per page that repeats a ticker.
 */
export function companyByTicker(context: RequestContext) {
  return loaderFor(
    context,
    'verticals:companyByTicker',
    () =>
      new DataLoader<string, Company | null>(
        async (tickers) => {
          const first = await context.db.sql.query<{ id: number }>(
            'SELECT min(id) AS id FROM companies WHERE ticker = ANY($1::text[]) GROUP BY ticker',
            [[...new Set(tickers)]],
          );
          const companies = await context.db.prisma.company.findMany({
            where: { id: { in: first.map((row) => row.id) } },
          });
          const byTicker = new Map(companies.map((company) => [company.ticker, company]));
          return tickers.map((ticker) => byTicker.get(ticker) ?? null);
        },
        { cache: false },
      ),
  );
}
