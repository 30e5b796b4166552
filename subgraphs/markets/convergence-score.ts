/**
 * Convergence leads: tickers where congressional purchases and recent signals coincide. A pure function of
 * the purchases and signals it is given, so the same data always gives the same leads in the same order.
 *
 * Score (0-100), in three capped parts:
 *   members    15 points per distinct member who bought, at most 45 (several members agreeing matters most);
 *   purchases   5 points per purchase, at most 20;
 *   signals    10 per BULLISH signal, 4 per NEUTRAL, 0 per BEARISH, at most 35.
 * Ordered by score, then purchases, then signals (all descending), then ticker.
 * The service computes the same rule in SQL (convergence-query.ts); this function is its specification, and a
 * test holds the two equal.
 */

export const CONVERGENCE_WEIGHTS = {
  perMember: 15,
  maxMembers: 45,
  perPurchase: 5,
  maxPurchases: 20,
  perSignal: { BULLISH: 10, NEUTRAL: 4, BEARISH: 0 } as Record<string, number>,
  maxSignals: 35,
} as const;

export interface Purchase {
  id: string;
  ticker: string | null;
  bioguideId: string | null;
  memberName: string;
  tradeDate: Date;
}

export interface ScoredSignal {
  id: string;
  ticker: string;
  companyName: string;
  sentiment: string;
  createdAt: Date;
}

export interface ConvergenceLead<P extends Purchase, S extends ScoredSignal> {
  ticker: string;
  companyName: string;
  congressBuys: number;
  totalSignals: number;
  bullishSignals: number;
  congressMembers: string[];
  score: number;
  scoreBreakdown: { members: number; purchases: number; signals: number };
  firstPurchaseDate: Date;
  lastPurchaseDate: Date;
  lastSignalAt: Date;
  purchases: P[];
  signals: S[];
}

/** One member counts once whether the disclosure names them by bioguide id or only by name. */
function memberKey(purchase: Purchase): string {
  return purchase.bioguideId ?? `name:${purchase.memberName}`;
}

export function convergenceLeads<P extends Purchase, S extends ScoredSignal>(
  purchases: P[],
  signals: S[],
): ConvergenceLead<P, S>[] {
  const buysByTicker = new Map<string, P[]>();
  for (const purchase of purchases) {
    if (!purchase.ticker) continue;
    buysByTicker.set(purchase.ticker, [...(buysByTicker.get(purchase.ticker) ?? []), purchase]);
  }
  const signalsByTicker = new Map<string, S[]>();
  for (const signal of signals) {
    if (!buysByTicker.has(signal.ticker)) continue;
    signalsByTicker.set(signal.ticker, [...(signalsByTicker.get(signal.ticker) ?? []), signal]);
  }
  const w = CONVERGENCE_WEIGHTS;
  const leads: ConvergenceLead<P, S>[] = [];
  for (const [ticker, tickerSignals] of signalsByTicker) {
    const buys = [...buysByTicker.get(ticker)!].sort(
      (a, b) => b.tradeDate.getTime() - a.tradeDate.getTime() || a.id.localeCompare(b.id),
    );
    const ordered = [...tickerSignals].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id),
    );
    const members = new Map<string, string>();
    // A member is named as in their newest purchase (the latest disclosure).
    for (const buy of buys) if (!members.has(memberKey(buy))) members.set(memberKey(buy), buy.memberName);
    const breakdown = {
      members: Math.min(members.size * w.perMember, w.maxMembers),
      purchases: Math.min(buys.length * w.perPurchase, w.maxPurchases),
      signals: Math.min(
        ordered.reduce((sum, signal) => sum + (w.perSignal[signal.sentiment] ?? 0), 0),
        w.maxSignals,
      ),
    };
    leads.push({
      ticker,
      companyName: ordered[0]!.companyName,
      congressBuys: buys.length,
      totalSignals: ordered.length,
      bullishSignals: ordered.filter((signal) => signal.sentiment === 'BULLISH').length,
      congressMembers: [...new Set(members.values())].sort(),
      score: breakdown.members + breakdown.purchases + breakdown.signals,
      scoreBreakdown: breakdown,
      firstPurchaseDate: buys[buys.length - 1]!.tradeDate,
      lastPurchaseDate: buys[0]!.tradeDate,
      lastSignalAt: ordered[0]!.createdAt,
      purchases: buys,
      signals: ordered,
    });
  }
  return leads.sort(
    (a, b) =>
      b.score - a.score ||
      b.congressBuys - a.congressBuys ||
      b.totalSignals - a.totalSignals ||
      a.ticker.localeCompare(b.ticker),
  );
}
