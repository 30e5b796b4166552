/**
 * Convergence leads: tickers where congressional purchases and signals of one window coincide. A pure function
 * of the purchases and signals it is given, so the same data always gives the same leads in the same order.
 *
 * Score (0-100, docs/api.md "Convergence leads"): evidence points from three parts, through a logistic curve
 *   purchases  log2(1 + dollars / $15,000), dollars = the purchases' bucket midpoints summed (size, not count);
 *   members    2 × log2(members): one member 0, two 2, four 4 (several members agreeing);
 *   signals    2 × tone × log2(1 + signals), tone = (bullish − bearish + ¼ neutral) / signals, from −1 to 1;
 *   score      100 / (1 + e^(−(points − 7) / 3.5)), one decimal.
 * The curve never reaches 100 (it takes 33.6 points to show 100.0) nor 0, so leads stay apart at both ends; a ticker
 * whose signals lean bearish loses points instead of adding none. Ordered by the unrounded score, then dollars,
 * purchases and signals (descending), then ticker.
 * The service aggregates the same parts in SQL (convergence-query.ts) and scores them here; a test holds the two
 * equal over the raw rows.
 */

export const CONVERGENCE_SCORE = {
  /** Dollars of a purchase disclosed without parsed bounds: the floor of the smallest bucket. */
  unknownAmount: 1001,
  amountUnit: 15_000,
  memberWeight: 2,
  signalWeight: 2,
  /** A neutral signal's share of a bullish one in the tone. */
  neutralTone: 0.25,
  /** Points at which the score is 50, and points per e-fold of the odds. */
  midpoint: 7,
  spread: 3.5,
} as const;

/** What a lead's score is computed from: the window's counts for one ticker. */
export interface LeadEvidence {
  buys: number;
  members: number;
  /** The purchases' bucket midpoints summed, in dollars (an open bucket counts its floor). */
  purchaseAmount: number;
  signals: number;
  bullish: number;
  neutral: number;
  bearish: number;
}

export interface ScoreParts {
  members: number;
  purchases: number;
  signals: number;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The midpoint of a purchase's disclosed bucket; an open bucket (`Over $50,000,000`) counts its floor. */
export function purchaseMidpoint(amountLow: number | null, amountHigh: number | null): number {
  const low = amountLow ?? CONVERGENCE_SCORE.unknownAmount;
  return (low + (amountHigh ?? low)) / 2;
}

/** The three parts' points and the score, unrounded (`score`) for ordering and rounded for display. */
export function convergenceScore(evidence: LeadEvidence): { exact: number; score: number; parts: ScoreParts } {
  const c = CONVERGENCE_SCORE;
  const tone =
    evidence.signals === 0
      ? 0
      : (evidence.bullish - evidence.bearish + c.neutralTone * evidence.neutral) / evidence.signals;
  const parts = {
    purchases: Math.log2(1 + evidence.purchaseAmount / c.amountUnit),
    members: c.memberWeight * Math.log2(Math.max(1, evidence.members)),
    signals: c.signalWeight * tone * Math.log2(1 + evidence.signals),
  };
  const points = parts.purchases + parts.members + parts.signals;
  const exact = 100 / (1 + Math.exp(-(points - c.midpoint) / c.spread));
  return {
    exact,
    score: round(exact, 1),
    parts: { members: round(parts.members, 2), purchases: round(parts.purchases, 2), signals: round(parts.signals, 2) },
  };
}

export interface Purchase {
  id: string;
  ticker: string | null;
  bioguideId: string | null;
  memberName: string;
  tradeDate: Date;
  amountLow: number | null;
  amountHigh: number | null;
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
  bearishSignals: number;
  purchaseAmount: number;
  congressMembers: string[];
  score: number;
  scoreBreakdown: ScoreParts;
  firstPurchaseDate: Date;
  lastPurchaseDate: Date;
  lastSignalAt: Date;
  purchases: P[];
  signals: S[];
}

/** Leads in their order: score (unrounded), dollars, purchases, signals, then ticker. */
export function compareLeads(
  a: { exact: number; evidence: LeadEvidence; ticker: string },
  b: { exact: number; evidence: LeadEvidence; ticker: string },
): number {
  return (
    b.exact - a.exact ||
    b.evidence.purchaseAmount - a.evidence.purchaseAmount ||
    b.evidence.buys - a.evidence.buys ||
    b.evidence.signals - a.evidence.signals ||
    (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0)
  );
}

/** One member counts once whether the disclosure names them by bioguide id or only by name. */
function memberKey(purchase: Purchase): string {
  return purchase.bioguideId ?? `name:${purchase.memberName}`;
}

/** The specification: leads from every purchase and signal of a window (already cut to it). */
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
  const scored: { lead: ConvergenceLead<P, S>; exact: number; evidence: LeadEvidence; ticker: string }[] = [];
  for (const [ticker, tickerSignals] of signalsByTicker) {
    const buys = [...buysByTicker.get(ticker)!].sort(
      (a, b) => b.tradeDate.getTime() - a.tradeDate.getTime() || (a.id < b.id ? -1 : 1),
    );
    const ordered = [...tickerSignals].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1),
    );
    const members = new Map<string, string>();
    // A member is named as in their newest purchase of the window (the latest disclosure).
    for (const buy of buys) if (!members.has(memberKey(buy))) members.set(memberKey(buy), buy.memberName);
    const count = (sentiment: string) => ordered.filter((signal) => signal.sentiment === sentiment).length;
    const evidence: LeadEvidence = {
      buys: buys.length,
      members: members.size,
      purchaseAmount: buys.reduce((sum, buy) => sum + purchaseMidpoint(buy.amountLow, buy.amountHigh), 0),
      signals: ordered.length,
      bullish: count('BULLISH'),
      neutral: count('NEUTRAL'),
      bearish: ordered.length - count('BULLISH') - count('NEUTRAL'),
    };
    const { exact, score, parts } = convergenceScore(evidence);
    const lead: ConvergenceLead<P, S> = {
      ticker,
      companyName: ordered[0]!.companyName,
      congressBuys: buys.length,
      totalSignals: ordered.length,
      bullishSignals: evidence.bullish,
      bearishSignals: evidence.bearish,
      purchaseAmount: evidence.purchaseAmount,
      congressMembers: [...new Set(members.values())].sort(),
      score,
      scoreBreakdown: parts,
      firstPurchaseDate: buys[buys.length - 1]!.tradeDate,
      lastPurchaseDate: buys[0]!.tradeDate,
      lastSignalAt: ordered[0]!.createdAt,
      purchases: buys,
      signals: ordered,
    };
    scored.push({ lead, exact, evidence, ticker });
  }
  return scored.sort(compareLeads).map((entry) => entry.lead);
}
