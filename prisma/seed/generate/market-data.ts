import type { Row } from '../copy.ts';
import { isoDay, round, weekdaysBefore, type SeedContext } from '../context.ts';
import { industryOf } from '../data/industries.ts';
import { MACRO_FUNDS, TICKERS, type Ticker } from '../data/tickers.ts';
import { Rng } from '../random.ts';
import { listedCore } from './company.ts';
import { personName } from './people.ts';

/**
 * Company profiles and daily prices for every ticker of data/tickers.ts (and the two funds macro signals
 * use), whether or not the scale gave it a company row: a ticker search always finds the well-known names.
 */
export const PROFILE_COLUMNS = [
  'ticker',
  'cik',
  'company_name',
  'sector',
  'industry',
  'market_cap',
  'ceo',
  'description',
  'website',
  'employees',
  'headquarters',
  'updated_at',
] as const;
export const DAILY_PRICE_COLUMNS = ['ticker', 'date', 'open', 'high', 'low', 'close', 'volume'] as const;
export const PRICE_DAYS = 60;

/** Every ticker with market data: the companies, then the funds. */
export const MARKET_TICKERS: readonly Ticker[] = [...TICKERS, ...MACRO_FUNDS];

/** Where a ticker's price walk starts: a share price in the usual $20-$600 range, fixed per seed. */
export function basePrice(ctx: SeedContext, ticker: string): number {
  return round(Rng.for(ctx.seed, `price:${ticker}`).logUniform(20, 600));
}

export function* profileRows(ctx: SeedContext): Generator<Row> {
  for (const [index, ticker] of TICKERS.entries()) {
    const core = listedCore(ctx, index + 1, ticker);
    const rng = Rng.for(ctx.seed, `profile:${ticker.ticker}`);
    const ceo = personName(rng, ctx.pools);
    const industry = industryOf(ticker.industry).name;
    const description =
      `${ticker.name} is a ${ticker.sector.toLowerCase()} company in the ${industry.toLowerCase()} industry, ` +
      `headquartered in ${ticker.city}, ${ticker.state}, with about ${core.employees.toLocaleString('en-US')} employees.`;
    yield [
      ticker.ticker,
      ticker.cik,
      ticker.name,
      ticker.sector,
      industry,
      Math.round((ticker.capBillions * 1e9 * rng.logNormal(1, 0.05)) / 1e6) * 1e6,
      `${ceo.first} ${ceo.last}`,
      description,
      `https://www.${core.domain}`,
      core.employees,
      `${ticker.city}, ${ticker.state}`,
      ctx.anchor,
    ];
  }
  for (const fund of MACRO_FUNDS) {
    yield [
      fund.ticker,
      fund.cik,
      fund.name,
      fund.sector,
      'Exchange Traded Fund',
      fund.capBillions * 1e9,
      null,
      `${fund.name} is an exchange-traded fund tracking ${fund.ticker === 'SPY' ? 'the S&P 500 index' : 'long-dated US Treasury bonds'}.`,
      null,
      null,
      `${fund.city}, ${fund.state}`,
      ctx.anchor,
    ];
  }
}

/** Daily volatility by sector: utilities and staples move least, technology most. */
function volatility(ticker: Ticker): number {
  if (ticker.sector === 'ETF') return ticker.ticker === 'TLT' ? 0.009 : 0.008;
  if (ticker.sector === 'Utilities' || ticker.sector === 'Consumer Defensive') return 0.011;
  if (ticker.sector === 'Technology' || ticker.sector === 'Communication Services') return 0.022;
  return 0.016;
}

/** A random walk per ticker over the last 60 weekdays; high and low always bracket open and close. */
export function* dailyPriceRows(ctx: SeedContext): Generator<Row> {
  const days = weekdaysBefore(ctx.anchor, PRICE_DAYS);
  for (const ticker of MARKET_TICKERS) {
    const rng = Rng.for(ctx.seed, `prices:${ticker.ticker}`);
    const sigma = volatility(ticker);
    const averageVolume = 400_000 * ticker.capBillions ** 0.6;
    let close = basePrice(ctx, ticker.ticker);
    for (const day of days) {
      const open = round(close * (1 + 0.3 * sigma * rng.normal()));
      close = round(Math.max(1, open * (1 + sigma * rng.normal())));
      const high = round(Math.max(open, close) * (1 + Math.abs(0.5 * sigma * rng.normal())));
      const low = round(Math.min(open, close) * (1 - Math.abs(0.5 * sigma * rng.normal())));
      const volume = BigInt(Math.round(averageVolume * rng.logNormal(1, 0.35)));
      yield [ticker.ticker, isoDay(day), open, Math.max(high, open, close), Math.min(low, open, close), close, volume];
    }
  }
}
