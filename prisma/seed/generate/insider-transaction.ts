import type { Row } from '../copy.ts';
import { addDays, type SeedContext } from '../context.ts';
import { Rng, Weighted } from '../random.ts';
import { basePrice } from './market-data.ts';
import { personName } from './people.ts';
import { tickerPicker } from './signal.ts';

/**
 * Form 4 insider transactions for the sandbox, so `/api/insider-trades` shows the shape of real filings: filings
 * of one to three lines by an officer or director of a listed company, over the last year (denser toward today,
 * like the signals), with the codes real filings use most. An option exercise (M) is filed as real ones are:
 * the option leaves Table II (derivative, disposed, with its exercise price and expiry) and the shares enter
 * Table I (acquired). Names are written "Last First", as EDGAR does.
 */
export const INSIDER_TRANSACTION_COLUMNS = [
  'id',
  'accession_number',
  'ticker',
  'issuer_cik',
  'owner_name',
  'owner_cik',
  'owner_title',
  'security_title',
  'derivative',
  'transaction_date',
  'transaction_code',
  'shares',
  'price_per_share',
  'acquired_disposed',
  'shares_owned_after',
  'direct_ownership',
  'rule_10b5_1',
  'sequence',
  'conversion_or_exercise_price',
  'exercise_date',
  'expiration_date',
  'underlying_security_title',
  'underlying_shares',
] as const;

/** Sales outnumber purchases in real Form 4 data; awards and tax withholding (F) come with every vesting. */
const CODES = new Weighted([
  ['S', 35],
  ['P', 12],
  ['A', 15],
  ['F', 15],
  ['M', 13],
  ['G', 10],
] as const);
const TITLES = ['Chief Executive Officer', 'Chief Financial Officer', 'Chief Operating Officer', 'General Counsel'];
const YEAR_DAYS = 365;

export function insiderTransactionCount(scale: number): number {
  return Math.max(100, Math.round(scale / 4));
}

export function* insiderTransactionRows(ctx: SeedContext): Generator<Row> {
  const rng = Rng.for(ctx.seed, 'insider_transactions');
  const tickers = tickerPicker(ctx.scale);
  const count = insiderTransactionCount(ctx.scale);
  let written = 0;
  for (let filing = 1; written < count; filing++) {
    const ticker = tickers.pick(rng);
    const name = personName(rng, ctx.pools);
    const director = rng.chance(0.3);
    const date = addDays(ctx.anchor, -Math.max(1, Math.round(YEAR_DAYS * rng.float() ** 2)));
    const owner = {
      accession: `${ticker.cik}-${String(date.getUTCFullYear() % 100).padStart(2, '0')}-${String(filing).padStart(6, '0')}`,
      name: `${name.last} ${name.first}`,
      cik: `000${rng.digits(7)}`,
      title: director ? null : rng.pick(TITLES),
    };
    let holding = Math.round(rng.logUniform(5_000, 2_000_000));
    const sequence = { stock: 0, derivative: 0 };
    const lines = Math.min(count - written, 1 + rng.int(3));
    for (let line = 0; line < lines && written < count; line++) {
      const code = CODES.pick(rng);
      const shares = Math.round(rng.logUniform(100, 50_000));
      const price = Math.round(basePrice(ctx, ticker.ticker) * rng.logNormal(1, 0.04) * 100) / 100;
      const acquired = code === 'P' || code === 'A' || code === 'M';
      holding = Math.max(0, holding + (acquired ? shares : -Math.min(shares, holding)));
      // The columns every line of one filing shares, behind a fresh id.
      const filed = (): Row => [
        rng.uuid(),
        owner.accession,
        ticker.ticker,
        ticker.cik,
        owner.name,
        owner.cik,
        owner.title,
      ];
      const stockRow = (txCode: string, txPrice: number | null): Row => [
        ...filed(),
        'Common Stock',
        false,
        date,
        txCode,
        shares,
        txPrice,
        acquired ? 'A' : 'D',
        holding,
        rng.chance(0.85),
        code === 'S' && rng.chance(0.6),
        ++sequence.stock,
        null,
        null,
        null,
        null,
        null,
      ];
      if (code === 'M') {
        const strike = Math.round(price * rng.between(30, 80)) / 100;
        yield [
          ...filed(),
          'Stock Option (Right to Buy)',
          true,
          date,
          'M',
          shares,
          0,
          'D',
          Math.round(shares * rng.between(1, 6)),
          true,
          false,
          ++sequence.derivative,
          strike,
          addDays(date, -rng.between(365, 3 * 365)),
          addDays(date, rng.between(365, 7 * 365)),
          'Common Stock',
          shares,
        ];
        written += 1;
        if (written >= count) break;
        yield stockRow('M', strike);
      } else {
        // Awards and gifts carry no price on a Form 4; the others trade at about the day's price.
        yield stockRow(code, code === 'A' || code === 'G' ? null : price);
      }
      written += 1;
    }
  }
}
