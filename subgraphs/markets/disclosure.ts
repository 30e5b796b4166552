/**
 * Facts derived from a congressional trade disclosure, as pure functions (the markets subgraph computes them on
 * read; importers may store them): the dollar bounds of the disclosed amount bucket and the disclosure lag.
 */

/** The STOCK Act deadline: a trade must be disclosed within 45 days. */
export const STOCK_ACT_DEADLINE_DAYS = 45;

const DOLLARS = /\$\s*([\d,]+(?:\.\d+)?)/g;

/**
 * `$1,001 - $15,000` → {low: 1001, high: 15000}; `Over $50,000,000` → {low: 50000001, high: null};
 * a single `$15,000` → both 15000. Nulls for text without an amount.
 */
export function parseAmountRange(range: string): { low: number | null; high: number | null } {
  const amounts = [...range.matchAll(DOLLARS)].map((match) => Number(match[1]!.replace(/,/g, '')));
  if (amounts.length === 0) return { low: null, high: null };
  if (amounts.length === 1) {
    return /over|more than|above|\+/i.test(range)
      ? { low: amounts[0]! + 1, high: null }
      : { low: amounts[0]!, high: amounts[0]! };
  }
  return { low: Math.min(amounts[0]!, amounts[1]!), high: Math.max(amounts[0]!, amounts[1]!) };
}

/** Whole days from the trade to its disclosure; null while undisclosed. */
export function disclosureLagDays(tradeDate: Date, disclosureDate: Date | null): number | null {
  if (!disclosureDate) return null;
  return Math.round((disclosureDate.getTime() - tradeDate.getTime()) / 86_400_000);
}

/** Disclosed later than the STOCK Act allows. */
export function isLateDisclosure(lagDays: number | null): boolean {
  return lagDays !== null && lagDays > STOCK_ACT_DEADLINE_DAYS;
}
