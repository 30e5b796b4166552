import { z } from 'zod';
import type { RequestContext } from '../platform/context.ts';
import { canonicalTicker } from '../platform/tickers.ts';

/**
 * A ticker symbol as clients type it (any case, at most 10 characters, a class share written `BRK.B`, `BRK-B` or
 * `BRK/B`), made the stored form (`BRK-B`, docs/api.md "Ticker symbols").
 */
/** How a ticker argument is written, for the descriptions of the arguments that take one. */
export const TICKER_FORMAT = 'any case, at most 10 characters; a class share as BRK.B, BRK-B or BRK/B';

export const tickerSymbol = z
  .string()
  .max(10, 'must be at most 10 characters')
  .regex(/^[A-Za-z][A-Za-z0-9]*(?:[./-][A-Za-z0-9]+)*$/, 'must be a ticker symbol such as AAPL or BRK.B')
  .transform(canonicalTicker);

/** A ticker the service knows: it has a profile, a price, a signal, a congressional trade or a company. */
export async function isKnownTicker(context: RequestContext, ticker: string): Promise<boolean> {
  const rows = await context.db.sql.query<{ known: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM company_profiles WHERE ticker = $1)
         OR EXISTS (SELECT 1 FROM daily_prices WHERE ticker = $1)
         OR EXISTS (SELECT 1 FROM signals WHERE ticker = $1)
         OR EXISTS (SELECT 1 FROM congressional_trades WHERE ticker = $1)
         OR EXISTS (SELECT 1 FROM companies WHERE ticker = $1) AS known`,
    [ticker],
  );
  return rows[0]?.known === true;
}
