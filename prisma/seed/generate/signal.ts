import type { Row } from '../copy.ts';
import type { SeedContext } from '../context.ts';
import { TICKERS, listedCount, type Ticker } from '../data/tickers.ts';
import { Rng, Weighted } from '../random.ts';
import { basePrice } from './market-data.ts';
import { earningsDraft, insiderDraft, macroDraft, secFilingDraft, type SignalDraft } from './signal-text.ts';

/**
 * Market signals over the last 365 days, denser toward today (age = 365 days × u², so about 14% fall in the
 * last week), on tickers that have a company row at this scale; macro signals are filed under SPY or TLT.
 */
export const SIGNAL_COLUMNS = [
  'id',
  'ticker',
  'company_name',
  'signal_type',
  'filing_type',
  'ai_summary',
  'materiality_score',
  'sentiment',
  'urgent',
  'source_url',
  'source_key',
  'created_at',
] as const;

const TYPES = new Weighted([
  ['sec_filing', 35],
  ['insider_buy', 12],
  ['insider_sell', 20],
  ['earnings_preview', 20],
  ['macro', 13],
] as const);
const YEAR_MS = 365 * 86_400_000;

export function signalCount(scale: number): number {
  return Math.max(200, scale);
}

/** Big companies file, trade and get covered more: tickers weighted by the square root of their size. */
export function tickerPicker(scale: number): Weighted<Ticker> {
  return new Weighted(
    TICKERS.slice(0, listedCount(scale)).map((ticker) => [ticker, Math.sqrt(ticker.capBillions)] as const),
  );
}

/** An EDGAR accession number (`0000320193-25-000123`) and the filing index URL it lives at. */
function edgarUrl(rng: Rng, ticker: Ticker, createdAt: Date): string {
  const accession = `${ticker.cik}-${String(createdAt.getUTCFullYear() % 100).padStart(2, '0')}-${rng.digits(6)}`;
  return `https://www.sec.gov/Archives/edgar/data/${Number(ticker.cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;
}

export function* signalRows(ctx: SeedContext): Generator<Row> {
  const rng = Rng.for(ctx.seed, 'signals');
  const tickers = tickerPicker(ctx.scale);
  const count = signalCount(ctx.scale);
  for (let n = 1; n <= count; n++) {
    const id = rng.uuid();
    const createdAt = new Date(ctx.anchor.getTime() - Math.max(1000, Math.round(YEAR_MS * rng.float() ** 2)));
    const type = TYPES.pick(rng);
    let ticker: Ticker;
    let draft: SignalDraft;
    let sourceUrl: string;
    if (type === 'macro') {
      const macro = macroDraft(rng);
      ticker = macro.fund;
      draft = macro;
      sourceUrl = `https://fred.stlouisfed.org/series/${macro.series}`;
    } else {
      ticker = tickers.pick(rng);
      draft =
        type === 'sec_filing'
          ? secFilingDraft(rng, ticker)
          : type === 'earnings_preview'
            ? earningsDraft(rng, ticker, createdAt)
            : insiderDraft(
                rng,
                ticker,
                ctx.pools,
                type === 'insider_buy',
                basePrice(ctx, ticker.ticker) * rng.logNormal(1, 0.08),
              );
      sourceUrl = edgarUrl(rng, ticker, createdAt);
    }
    yield [
      id,
      ticker.ticker,
      ticker.name,
      type,
      draft.filingType,
      draft.summary,
      draft.materiality,
      draft.sentiment,
      draft.materiality >= 80,
      sourceUrl,
      `seed:signal:${n}`,
      createdAt,
    ];
  }
}
