/** One decimal at most, so `$12.5M` and `$1.2B`, and `$1B` rather than `$1.0B`. */
const REVENUE = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/**
 * Revenue as the documents show it: `$850K` below a million, `$12.5M`, `$1.2B` at a billion or more
 * (one decimal, trailing `.0` dropped).
 */
export function formatRevenue(usd: number): string {
  return REVENUE.format(usd);
}
