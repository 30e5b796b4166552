import type { Form4Document, Form4Transaction } from './form4-xml.ts';

/**
 * One signal per filing and direction: the open-market purchases (code P) of a Form 4 make an `insider_buy`,
 * its open-market sales (code S) an `insider_sell`. Grants, exercises and tax withholding (A, M, F, …) are
 * not market signals. Materiality grows with the dollar value; a buy weighs more than a sale (insiders sell for
 * many reasons, buy for one), a sale under a 10b5-1 plan less (it was scheduled in advance).
 */
export interface InsiderSignal {
  code: 'P' | 'S';
  signalType: 'insider_buy' | 'insider_sell';
  materiality: number;
  sentiment: 'BULLISH' | 'BEARISH' | 'NEUTRAL';
  urgent: boolean;
  summary: string;
}

export function insiderSignals(document: Form4Document, ticker: string): InsiderSignal[] {
  const signals: InsiderSignal[] = [];
  for (const code of ['P', 'S'] as const) {
    const trades = document.transactions.filter((row) => !row.derivative && row.code === code && row.shares);
    if (trades.length === 0) continue;
    const shares = trades.reduce((total, row) => total + (row.shares ?? 0), 0);
    const value = trades.reduce((total, row) => total + (row.shares ?? 0) * (row.pricePerShare ?? 0), 0);
    const planned = trades.every((row) => row.rule10b51);
    const base = value >= 10_000_000 ? 75 : value >= 1_000_000 ? 62 : value >= 100_000 ? 48 : 35;
    const materiality = Math.max(0, Math.min(100, base + (code === 'P' ? 12 : 0) - (planned ? 15 : 0)));
    signals.push({
      code,
      signalType: code === 'P' ? 'insider_buy' : 'insider_sell',
      materiality,
      sentiment: code === 'P' ? 'BULLISH' : planned ? 'NEUTRAL' : 'BEARISH',
      urgent: materiality >= 80,
      summary: summarise(document, ticker, code, trades, shares, value, planned),
    });
  }
  return signals;
}

function summarise(
  document: Form4Document,
  ticker: string,
  code: 'P' | 'S',
  trades: Form4Transaction[],
  shares: number,
  value: number,
  planned: boolean,
): string {
  const prices = trades.map((row) => row.pricePerShare).filter((price): price is number => price !== null);
  const range = prices.length
    ? Math.min(...prices) === Math.max(...prices)
      ? ` at $${Math.min(...prices).toFixed(2)}`
      : ` at $${Math.min(...prices).toFixed(2)}–$${Math.max(...prices).toFixed(2)}`
    : '';
  const dates = [...new Set(trades.map((row) => row.transactionDate).filter(Boolean))].sort();
  const when = dates.length ? ` on ${dates.length === 1 ? dates[0] : `${dates[0]} to ${dates[dates.length - 1]}`}` : '';
  const who = document.ownerTitle ? `${document.ownerName} (${document.ownerTitle})` : document.ownerName;
  const verb = code === 'P' ? 'bought' : 'sold';
  const count = trades.length === 1 ? 'one open-market transaction' : `${trades.length} open-market transactions`;
  return `${who} ${verb} ${shares.toLocaleString('en-US')} shares of ${ticker}${range}${when} in ${count}, about $${compact(value)}${planned ? ', under a Rule 10b5-1 plan' : ''}.`;
}

function compact(value: number): string {
  if (value >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(0)}K`;
  return value.toFixed(0);
}
