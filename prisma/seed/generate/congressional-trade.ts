import type { Row } from '../copy.ts';
import { addDays, isWeekday, isoDay, type SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';
import { basePrice } from './market-data.ts';
import { buildMembers } from './member.ts';
import { tickerPicker } from './signal.ts';

/**
 * STOCK Act disclosures over the last two years (~30% traded in the last 90 days). Each trade copies its
 * member's name, party and chamber as a disclosure does; the amount stays the disclosed bucket text with
 * its bounds parsed out. Members file within 45 days mostly; later filings are flagged `late`.
 */
export const TRADE_COLUMNS = [
  'id',
  'bioguide_id',
  'member_name',
  'party',
  'chamber',
  'ticker',
  'asset_description',
  'asset_type',
  'trade_type',
  'owner',
  'amount_range',
  'amount_low',
  'amount_high',
  'trade_date',
  'disclosure_date',
  'disclosure_lag_days',
  'late',
  'source',
  'filing_url',
  'natural_key',
  'option_detail',
] as const;

/** The disclosure buckets of the periodic transaction report form, smaller ones far more common. */
export const AMOUNT_RANGES = new Weighted([
  ['$1,001 - $15,000', 55],
  ['$15,001 - $50,000', 22],
  ['$50,001 - $100,000', 10],
  ['$100,001 - $250,000', 6],
  ['$250,001 - $500,000', 3],
  ['$500,001 - $1,000,000', 2],
  ['$1,000,001 - $5,000,000', 1.2],
  ['$5,000,001 - $25,000,000', 0.5],
  ['$25,000,001 - $50,000,000', 0.2],
  ['Over $50,000,000', 0.1],
] as const);
const TRADE_TYPES = new Weighted([
  ['purchase', 48],
  ['sale', 24],
  ['sale_partial', 20],
  ['exchange', 8],
] as const);
const OWNERS = new Weighted([
  ['self', 45],
  ['spouse', 32],
  ['joint', 16],
  ['dependent', 7],
] as const);

/** `$15,001 - $50,000` → 15001 and 50000; `Over $50,000,000` → 50000001 and no upper bound. */
export function parseAmountRange(text: string): { low: number; high: number | null } {
  const numbers = [...text.matchAll(/\$([\d,]+)/g)].map((match) => Number((match[1] ?? '').replace(/,/g, '')));
  if (text.startsWith('Over')) return { low: (numbers[0] ?? 0) + 1, high: null };
  return { low: numbers[0] ?? 0, high: numbers[1] ?? null };
}

/** An option contract as disclosures describe it: call or put, a strike, an expiry a few months out. */
function optionContract(rng: Rng, tradeDate: Date, price: number): { kind: 'Call' | 'Put'; detail: string } {
  const kind = rng.chance(0.7) ? 'Call' : 'Put';
  // Strikes sit near the share price, on the $5 grid (a $1 grid for cheap stocks).
  const grid = price < 50 ? 1 : 5;
  const strike = Math.max(grid, Math.round((price * (0.8 + 0.5 * rng.float())) / grid) * grid);
  const expiry = isoDay(addDays(tradeDate, rng.between(30, 540)));
  return { kind, detail: `${kind}, strike $${strike}, expires ${expiry}` };
}

const AMOUNT_BOUNDS = new Map(AMOUNT_RANGES.values.map((range) => [range, parseAmountRange(range)] as const));

export function tradeCount(scale: number): number {
  return Math.max(300, Math.round(scale / 2));
}

export function* congressionalTradeRows(ctx: SeedContext): Generator<Row> {
  const rng = Rng.for(ctx.seed, 'congressional_trades');
  const members = buildMembers(ctx);
  const memberPicker = new Weighted(members.map((member) => [member, member.tradeWeight] as const));
  const tickers = tickerPicker(ctx.scale);
  const count = tradeCount(ctx.scale);
  for (let n = 1; n <= count; n++) {
    const id = rng.uuid();
    const member = memberPicker.pick(rng);
    const ticker = tickers.pick(rng);
    let daysAgo = rng.chance(0.3) ? rng.between(1, 90) : rng.between(91, 730);
    // Markets trade on weekdays: a weekend date moves back to Friday.
    while (!isWeekday(addDays(ctx.anchor, -daysAgo))) daysAgo += 1;
    let lag = rng.chance(0.88) ? rng.between(3, 45) : rng.between(46, 90);
    // Nothing is disclosed after today: a recent trade has had less time to be filed.
    if (lag > daysAgo) lag = rng.between(1, daysAgo);
    const option = rng.chance(0.15)
      ? optionContract(rng, addDays(ctx.anchor, -daysAgo), basePrice(ctx, ticker.ticker))
      : null;
    const amountRange = AMOUNT_RANGES.pick(rng);
    const { low, high } = AMOUNT_BOUNDS.get(amountRange) ?? parseAmountRange(amountRange);
    const tradeDate = addDays(ctx.anchor, -daysAgo);
    const disclosureDate = addDays(tradeDate, lag);
    const house = member.chamber === 'house';
    const filingUrl = house
      ? `https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/${disclosureDate.getUTCFullYear()}/${20_000_000 + n}.pdf`
      : `https://efdsearch.senate.gov/search/view/ptr/${rng.uuid()}/`;
    yield [
      id,
      member.bioguideId,
      member.fullName,
      member.party,
      member.chamber,
      ticker.ticker,
      option ? `${ticker.name} - ${option.kind} Options` : `${ticker.name} - Common Stock`,
      option ? 'option' : 'stock',
      TRADE_TYPES.pick(rng),
      OWNERS.pick(rng),
      amountRange,
      low,
      high,
      isoDay(tradeDate),
      isoDay(disclosureDate),
      lag,
      lag > 45,
      house ? 'house_clerk' : 'senate_efd',
      filingUrl,
      `seed:trade:${n}`,
      option?.detail ?? null,
    ];
  }
}
