import { parseAmountRange } from '../../../subgraphs/data-loading.ts';
import { reject } from '../importer.ts';
import { parseOptionSymbol } from './tickers.ts';

/** Who holds the asset, in one vocabulary: the files write `Self`/`Spouse`/`Joint`/`Child`, or `SP`/`JT`/`DC`. */
export type TradeOwner = 'self' | 'spouse' | 'joint' | 'dependent';

const OWNERS: Record<string, TradeOwner> = {
  self: 'self',
  '': 'self',
  filer: 'self',
  spouse: 'spouse',
  sp: 'spouse',
  joint: 'joint',
  jt: 'joint',
  child: 'dependent',
  'dependent child': 'dependent',
  dependent: 'dependent',
  dc: 'dependent',
};

export function normaliseOwner(raw: string | null | undefined): TradeOwner {
  const owner = OWNERS[(raw ?? '').trim().toLowerCase()];
  return owner ?? reject('unknown_owner', `owner "${raw}" is none of Self, Spouse, Joint, Child (SP, JT, DC)`);
}

export type TradeType = 'purchase' | 'sale' | 'sale_partial' | 'exchange';

const TRADE_TYPES: Record<string, TradeType> = {
  purchase: 'purchase',
  p: 'purchase',
  sale: 'sale',
  'sale (full)': 'sale',
  sale_full: 'sale',
  s: 'sale',
  'sale (partial)': 'sale_partial',
  sale_partial: 'sale_partial',
  's (partial)': 'sale_partial',
  exchange: 'exchange',
  e: 'exchange',
};

export function normaliseTradeType(raw: string | null | undefined): TradeType {
  const type = TRADE_TYPES[(raw ?? '').trim().toLowerCase()];
  return (
    type ?? reject('unknown_trade_type', `type "${raw}" is none of Purchase, Sale (Full), Sale (Partial), Exchange`)
  );
}

// The STOCK Act's value buckets (low bound → high bound); "Over $…" buckets have no high bound.
const BUCKETS = new Map<number, number | null>([
  [1, 1000],
  [1001, 15000],
  [15001, 50000],
  [50001, 100000],
  [100001, 250000],
  [250001, 500000],
  [500001, 1000000],
  [1000001, 5000000],
  [5000001, 25000000],
  [25000001, 50000000],
]);
const OPEN_BUCKETS = new Set([1000001, 50000001]);

/** `$1,001 - $15,000` → 1001..15000; a range that is not a disclosure bucket (`$3,001 - $15,000`) is rejected. */
export function parseAmount(raw: string | null | undefined): { range: string; low: number; high: number | null } {
  const range = (raw ?? '').trim();
  const { low, high } = parseAmountRange(range);
  if (low === null) return reject('unparseable_amount', `amount "${range}" names no dollar value`);
  const bucketHigh = BUCKETS.get(low);
  const valid = high === null ? OPEN_BUCKETS.has(low) : bucketHigh === high;
  if (!valid) return reject('unparseable_amount', `amount "${range}" is not a disclosure bucket`);
  return { range, low, high };
}

export type AssetType = 'stock' | 'option' | 'bond' | 'fund' | 'other';

/** `&amp;` and `<div class="text-muted">…</div>` from the Senate pages, as plain text on one line. */
export function cleanDescription(raw: string | null | undefined): string {
  return (raw ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const SENATE_ASSET_TYPES: Record<string, AssetType> = {
  stock: 'stock',
  'non-public stock': 'stock',
  'stock option': 'option',
  'corporate bond': 'bond',
  'municipal security': 'bond',
  'other securities': 'other',
  'mutual fund': 'fund',
  etf: 'fund',
};

/**
 * The asset class of a trade: the disclosed asset type when there is one (the Senate's), else read from the
 * description and ticker (the House's): an OCC option symbol or call/put wording is an option.
 */
export function classifyAsset(
  disclosedType: string | null | undefined,
  description: string,
  ticker: string | null,
): { assetType: AssetType; optionDetail: string | null } {
  const option = optionDetail(description, ticker);
  const declared = SENATE_ASSET_TYPES[(disclosedType ?? '').trim().toLowerCase()];
  if (declared === 'option' || option) return { assetType: 'option', optionDetail: option ?? description };
  if (declared && declared !== 'other') return { assetType: declared, optionDetail: null };
  if (/\b(etf|fund|index|ishares|spdr|vanguard|trust units?)\b/i.test(description))
    return { assetType: 'fund', optionDetail: null };
  if (/\b(bonds?|notes?|treasury|bills?|municipal|debenture|\d+(\.\d+)?\s?%)\b/i.test(description)) {
    return { assetType: 'bond', optionDetail: null };
  }
  if (declared === 'other') return { assetType: 'other', optionDetail: null };
  if (ticker || /\b(common|ordinary|shares?|stock|class [a-c]|adr|ads)\b/i.test(description)) {
    return { assetType: 'stock', optionDetail: null };
  }
  return { assetType: 'other', optionDetail: null };
}

function optionDetail(description: string, ticker: string | null): string | null {
  const symbol = ticker ? parseOptionSymbol(ticker) : null;
  if (symbol) return `${symbol.right} ${symbol.underlying} strike ${symbol.strike} expiring ${symbol.expiry}`;
  if (
    /\b(call|put)s?\b.*\b(option|strike|exp)|\boptions?\b.*\b(call|put)s?\b|\b(call|put) options?\b/i.test(description)
  ) {
    return description;
  }
  return null;
}
