/** One decimal at most, so `$12.5M` and `$1.2B`, and `$1B` rather than `$1.0B`. */
const REVENUE = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** Amounts already formatted: `Intl.NumberFormat` in compact notation showed at about 1 % of a list's CPU. */
const formatted = new Map<number, string>();
const MAX_FORMATTED = 10_000;

/**
 * Revenue as the documents show it: `$850K` below a million, `$12.5M`, `$1.2B` at a billion or more
 * (one decimal, trailing `.0` dropped).
 */
export function formatRevenue(usd: number): string {
  let text = formatted.get(usd);
  if (text === undefined) {
    text = REVENUE.format(usd);
    if (formatted.size >= MAX_FORMATTED) formatted.clear();
    formatted.set(usd, text);
  }
  return text;
}
