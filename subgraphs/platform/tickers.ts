/**
 * The one form of a ticker symbol, stored and answered: upper case, class shares in SEC's dash form (`BRK-B`, as
 * company_tickers.json writes it). `BRK.B`, `BRK/B`, `BRK B` and `brk-b` are the same ticker; the importers and
 * every API input (GraphQL arguments, and through them the REST routes) go through this function.
 */
export function canonicalTicker(text: string): string {
  return text
    .trim()
    .toUpperCase()
    .replace(/[./\s]+/g, '-');
}
