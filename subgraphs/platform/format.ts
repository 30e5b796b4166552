/**
 * Revenue as the documents show it: `$850K` below a million, `$12.5M`, `$1.2B` at a billion or more
 * (one decimal, trailing `.0` dropped).
 */
export function formatRevenue(usd: number): string {
  const scales: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of scales) {
    if (usd >= size) return `$${trimDecimal(usd / size)}${suffix}`;
  }
  return `$${Math.round(usd)}`;
}

function trimDecimal(value: number): string {
  return (Math.round(value * 10) / 10).toFixed(1).replace(/\.0$/, '');
}
