import { canonicalTicker } from '../../../subgraphs/platform/tickers.ts';

/**
 * Ticker symbols as the files write them, made the API's one form (canonicalTicker): class shares in SEC's dash
 * form, so `BRK.B`, `BRK/B`, `BRK B` and `brk-b` all become `BRK-B`. A run of letters with the class glued on
 * (`BRKB`) becomes `BRK-B` only when `known` says so (it cannot be told from `BRKB` the ticker otherwise).
 */
export function normaliseTicker(raw: string | null | undefined, known?: ReadonlySet<string>): string | null {
  const text = (raw ?? '').trim().toUpperCase().replace(/^\$/, '');
  // Placeholders: "--", "N/A", blanks. ("NA" is a real ticker: Nano Labs.)
  if (text === '' || /^(-+|N\/A|NULL)$/.test(text)) return null;
  const ticker = canonicalTicker(text);
  if (!/^[A-Z0-9^][A-Z0-9^-]*$/.test(ticker) || ticker.length > 21) return null;
  if (known && !known.has(ticker) && /^[A-Z]{2,5}$/.test(ticker)) {
    const classShare = `${ticker.slice(0, -1)}-${ticker.slice(-1)}`;
    if (known.has(classShare)) return classShare;
  }
  return ticker;
}

export interface OptionSymbol {
  underlying: string;
  expiry: string;
  right: 'call' | 'put';
  strike: number;
}

/** An OCC option symbol (`SPY160219P00180000`: SPY put, strike 180, expiring 2016-02-19), or null. */
export function parseOptionSymbol(symbol: string): OptionSymbol | null {
  const match = /^([A-Z]{1,6})(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/.exec(symbol);
  if (!match) return null;
  return {
    underlying: match[1]!,
    expiry: `20${match[2]}-${match[3]}-${match[4]}`,
    right: match[5] === 'C' ? 'call' : 'put',
    strike: Number(match[6]) / 1000,
  };
}
