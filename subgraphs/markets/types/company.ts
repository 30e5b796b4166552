import DataLoader from 'dataloader';
import type { Signal } from '../../../prisma/generated/client/client.ts';
import { loaderFor } from '../../shared/context.ts';
import type { RequestContext } from '../../shared/context.ts';
import { BadRequestError } from '../../shared/errors.ts';
import { signalHistoryStart } from '../../shared/plans.ts';
import { builder } from '../builder.ts';
import { Signal as SignalType } from './signal.ts';

/**
 * The verticals subgraph's Company, extended with its market data. The gateway sends each company's `ticker`
 * (@requires), and the signals of all companies in a response are read in one batch.
 */
export const CompanyRef = builder.externalRef('Company', builder.selection<{ id: string }>('id'), (ref) => ref);

const MAX_SIGNALS_PER_COMPANY = 50;

/** Latest `limit` signals per ticker, for every ticker asked for in this tick: two queries in all. */
function signalsByTicker(context: RequestContext, limit: number) {
  return loaderFor(context, `markets:signalsByTicker:${limit}`, () =>
    new DataLoader<string, Signal[]>(async (tickers) => {
      const since = signalHistoryStart(context.viewer?.plan) ?? new Date(0);
      const rows = await context.db.sql.query<{ id: string }>(
        `SELECT s.id FROM unnest($1::text[]) AS t(ticker)
         CROSS JOIN LATERAL (
           SELECT id FROM signals WHERE ticker = t.ticker AND created_at >= $2
           ORDER BY created_at DESC, id DESC LIMIT $3
         ) AS s`,
        [tickers, since, limit],
      );
      const signals = await context.db.prisma.signal.findMany({
        where: { id: { in: rows.map((row) => row.id) } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return tickers.map((ticker) => signals.filter((signal) => signal.ticker === ticker));
    }),
  );
}

CompanyRef.implement({
  externalFields: (t) => ({
    id: t.string(),
    ticker: t.string({ nullable: true }),
  }),
  fields: (t) => ({
    signals: t.field({
      type: [SignalType],
      description: 'The company’s latest signals (by ticker), newest first; empty without a ticker.',
      args: { limit: t.arg.int({ required: false, defaultValue: 10 }) },
      requires: builder.selection<{ ticker?: string | null }>('ticker'),
      resolve: (company, args, context) => {
        const limit = args.limit ?? 10;
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNALS_PER_COMPANY) {
          throw new BadRequestError({ limit: `must be an integer from 1 to ${MAX_SIGNALS_PER_COMPANY}` });
        }
        return company.ticker ? signalsByTicker(context, limit).load(company.ticker) : [];
      },
    }),
  }),
});
