import { basename } from 'node:path';
import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { checkPlausibleDate, parseDate } from '../normalise/dates.ts';
import { normaliseTicker } from '../normalise/tickers.ts';
import { columnPositions } from '../read/csv-header.ts';
import { csvRows } from '../read/csv.ts';
import { convertOrReject } from '../rejects.ts';

const PRICES_TABLE: UpsertTable = {
  table: 'daily_prices',
  columns: {
    ticker: 'text',
    date: 'date',
    open: 'float8',
    high: 'float8',
    low: 'float8',
    close: 'float8',
    volume: 'int8',
  },
  key: ['ticker', 'date'],
};

const COLUMNS = {
  date: { headings: ['Date', 'datetime', 'timestamp', 'time'] },
  open: { headings: ['Open'] },
  high: { headings: ['High'] },
  low: { headings: ['Low'] },
  close: { headings: ['Close'] },
  volume: { headings: ['Volume', 'vol'] },
} as const;

type Positions = Record<keyof typeof COLUMNS, number>;

/** Prices are kept to 4 decimals: enough for sub-dollar stocks, and it drops binary noise (5.5600000000000005). */
const PRICE_PLACES = 10_000;

/**
 * Daily OHLCV CSV files, one ticker a file: `Date,Open,High,Low,Close,Volume` (Yahoo, Stooq; other columns such
 * as `Adj Close` are ignored) or `datetime,open,high,low,close,volume`, headings in any case. The ticker is
 * `--ticker` or the file name's first part (`AAPL.US_D1.csv` → AAPL, `BRK.B.US_D1.csv` → BRK-B). A Saturday or
 * Sunday row is rejected as `non_trading_day`: US exchanges do not trade then, and such a row would become the
 * "previous close" of a quote (docs/data-sources.md, "Daily prices").
 */
export const pricesImporter: Importer = {
  source: 'prices',
  describe: 'daily OHLCV CSV (Date,Open,High,Low,Close,Volume), ticker from the file name or --ticker',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(context.db.sql, PRICES_TABLE, counts);
    for (const file of files) {
      const ticker = context.options.ticker ? tickerOption(context.options.ticker) : tickerOfFile(file);
      let positions: Positions | null = null;
      for await (const row of csvRows(file)) {
        if (!positions) {
          positions = columnPositions(file, row, COLUMNS, 'a daily OHLCV CSV');
          continue;
        }
        counts.read += 1;
        const at = positions;
        const price = await convertOrReject(
          'prices',
          { ticker, row },
          () => priceRow(ticker, row, at, context.now),
          context.rejects,
          counts,
        );
        if (price) await writer.add(price);
      }
    }
    await writer.flush();
    context.progress(`prices: ${counts.read} daily rows read`);
    return counts;
  },
};

function tickerOption(text: string): string {
  const ticker = normaliseTicker(text);
  if (!ticker) throw new Error(`--ticker "${text}" is not a ticker symbol`);
  return ticker;
}

/** `AAPL.US_D1.csv` → AAPL: the name before any `_` suffix, without the extension and a `.US` exchange suffix. */
export function tickerOfFile(file: string): string {
  const stem = basename(file)
    .replace(/\.(csv|txt)$/i, '')
    .split('_')[0]!
    .replace(/\.US$/i, '');
  const ticker = normaliseTicker(stem);
  if (!ticker || ticker.length > 10)
    throw new Error(`${file}: no ticker in the file name ("${stem}"); name it AAPL.csv or give --ticker`);
  return ticker;
}

function priceRow(ticker: string, row: string[], at: Positions, now: Date) {
  const date = checkPlausibleDate(parseDate(row[at.date], 'date'), 'date', now);
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6)
    reject('non_trading_day', `${date} is a ${weekday === 0 ? 'Sunday' : 'Saturday'}: no US trading session`);
  const [open, high, low, close] = (['open', 'high', 'low', 'close'] as const).map((field) => {
    const text = (row[at[field]] ?? '').trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || value <= 0) reject('invalid_price', `${field} "${text}" on ${date}`);
    return Math.round(value * PRICE_PLACES) / PRICE_PLACES;
  }) as [number, number, number, number];
  if (high < Math.max(open, close, low) || low > Math.min(open, close))
    reject('inconsistent_range', `${date}: high ${high} / low ${low} do not bracket open ${open} and close ${close}`);
  const volumeText = (row[at.volume] ?? '').trim();
  const volume = Number(volumeText);
  if (volumeText === '' || !Number.isFinite(volume) || volume < 0)
    reject('invalid_volume', `volume "${volumeText}" on ${date}`);
  return { ticker, date, open, high, low, close, volume: Math.round(volume) };
}
