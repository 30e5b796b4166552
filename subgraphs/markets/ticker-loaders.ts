import DataLoader from 'dataloader';
import type { CompanyProfile, CongressionalTrade, Signal } from '../../prisma/generated/client/client.ts';
import { loaderFor } from '../platform/context.ts';
import type { RequestContext } from '../platform/context.ts';
import { signalHistoryStart } from './signal-history.ts';
import { utcDate } from '../platform/dates.ts';
import { canonicalTicker } from '../platform/tickers.ts';
import { wholeRows } from '../platform/model-rows.ts';

/**
 * Per-request loaders of market data by ticker: every ticker asked for in one tick (the companies of a
 * federated response, a watchlist) costs one query in all, never one per ticker. They read through `pg`
 * (model-rows.ts): a ticker view runs all four, and through Prisma they were most of its CPU. Keys are made the
 * stored form first: a federated company's ticker comes as the verticals record has it (`BRK.B`).
 */

/** Latest `limit` signals per ticker, within the viewer's plan history. */
export function signalsByTicker(context: RequestContext, limit: number) {
  return loaderFor(
    context,
    `markets:signalsByTicker:${limit}`,
    () =>
      new DataLoader<string, Signal[]>(async (keys) => {
        const tickers = keys.map(canonicalTicker);
        const since = signalHistoryStart(context.viewer?.plan) ?? new Date(0);
        const signals = wholeRows<Signal>(context.db, 'Signal');
        const rows = await signals.read(
          `SELECT s.* FROM unnest($1::text[]) AS t(ticker)
            CROSS JOIN LATERAL (
              SELECT ${signals.columns} FROM signals WHERE ticker = t.ticker AND created_at >= $2
               ORDER BY created_at DESC, id DESC LIMIT $3
            ) AS s`,
          [[...new Set(tickers)], since, limit],
        );
        return tickers.map((ticker) => rows.filter((signal) => signal.ticker === ticker));
      }),
  );
}

/** Latest `limit` congressional trades in force per ticker, newest trade first. */
export function tradesByTicker(context: RequestContext, limit: number) {
  return loaderFor(
    context,
    `markets:tradesByTicker:${limit}`,
    () =>
      new DataLoader<string, CongressionalTrade[]>(async (keys) => {
        const tickers = keys.map(canonicalTicker);
        const trades = wholeRows<CongressionalTrade>(context.db, 'CongressionalTrade');
        const rows = await trades.read(
          `SELECT c.* FROM unnest($1::text[]) AS t(ticker)
            CROSS JOIN LATERAL (
              SELECT ${trades.columns} FROM congressional_trades
               WHERE ticker = t.ticker AND superseded_by_id IS NULL
               ORDER BY trade_date DESC, id DESC LIMIT $2
            ) AS c`,
          [[...new Set(tickers)], limit],
        );
        return tickers.map((ticker) => rows.filter((trade) => trade.ticker === ticker));
      }),
  );
}

export function profileByTicker(context: RequestContext) {
  return loaderFor(
    context,
    'markets:profileByTicker',
    () =>
      new DataLoader<string, CompanyProfile | null>(async (keys) => {
        const tickers = keys.map(canonicalTicker);
        const profiles = wholeRows<CompanyProfile>(context.db, 'CompanyProfile');
        const rows = await profiles.read(`SELECT ${profiles.columns} FROM company_profiles WHERE ticker = ANY($1)`, [
          tickers,
        ]);
        return tickers.map((ticker) => rows.find((profile) => profile.ticker === ticker) ?? null);
      }),
  );
}

/**
 * A price and its change from the previous stored close: the latest two daily prices, never anything else
 * (docs/api.md "Quotes").
 */
export interface Quote {
  ticker: string;
  price: number;
  date: Date;
  previousClose: number | null;
  previousDate: Date | null;
  change: number | null;
  changePct: number | null;
}

/** Rounded to `places` decimals, so a difference of two stored prices carries no binary noise (0.1 + 0.2). */
function rounded(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

export function quoteByTicker(context: RequestContext) {
  return loaderFor(
    context,
    'markets:quoteByTicker',
    () =>
      new DataLoader<string, Quote | null>(async (keys) => {
        const tickers = keys.map(canonicalTicker);
        const rows = await context.db.sql.query<{ ticker: string; date: string; close: number }>(
          `SELECT p.ticker, p.date::text AS date, p.close FROM unnest($1::text[]) AS t(ticker)
         CROSS JOIN LATERAL (
           SELECT ticker, date, close FROM daily_prices WHERE ticker = t.ticker ORDER BY date DESC LIMIT 2
         ) AS p`,
          [tickers],
        );
        return tickers.map((ticker) => {
          const [latest, previous] = rows.filter((row) => row.ticker === ticker);
          if (!latest) return null;
          const price = Number(latest.close);
          const previousClose = previous ? Number(previous.close) : null;
          return {
            ticker,
            price,
            date: utcDate(latest.date),
            previousClose,
            previousDate: previous ? utcDate(previous.date) : null,
            // Prices are stored to 4 decimals (the prices importer); the difference is rounded the same way.
            change: previousClose === null ? null : rounded(price - previousClose, 4),
            // Rounded to hundredths of a percent, as quotes are shown.
            changePct: previousClose ? rounded(((price - previousClose) / previousClose) * 100, 2) : null,
          };
        });
      }),
  );
}
