import { describe, expect, it } from 'vitest';
import { AMOUNT_RANGES } from '../../../prisma/seed/generate/congressional-trade.ts';
import { convergenceLeads } from '../../../subgraphs/markets/convergence-score.ts';
import { parseAmountRange } from '../../../subgraphs/markets/disclosure.ts';

/** The score's shape (docs/api.md "Convergence leads"), through the specification over raw rows. */

const buy = (id: string, ticker: string, member: string, range = '$15,001 - $50,000', date = '2026-01-05') => ({
  id,
  ticker,
  bioguideId: member,
  memberName: `Member ${member}`,
  tradeDate: new Date(`${date}T00:00:00Z`),
  amountLow: parseAmountRange(range).low,
  amountHigh: parseAmountRange(range).high,
});

const signalsOf = (ticker: string, sentiments: string[]) =>
  sentiments.map((sentiment, n) => ({
    id: `${ticker}-s${String(n).padStart(3, '0')}`,
    ticker,
    companyName: `${ticker} Inc.`,
    sentiment,
    createdAt: new Date(Date.UTC(2026, 0, 10, n)),
  }));

const repeat = (sentiment: string, count: number) => Array.from({ length: count }, () => sentiment);

/** The one lead of a ticker bought as given, with the given signals. */
function leadOf(purchases: ReturnType<typeof buy>[], sentiments: string[]) {
  const [lead] = convergenceLeads(purchases, signalsOf('AAA', sentiments));
  return lead!;
}

describe('convergence score', () => {
  it('grows with the dollars bought: every larger bucket, and a second purchase, score higher', () => {
    const signals = [...repeat('BULLISH', 3), 'NEUTRAL'];
    // The buckets in the order of their amounts (the generator lists every bucket of the form).
    const buckets = [...AMOUNT_RANGES.values].sort((a, b) => parseAmountRange(a).low! - parseAmountRange(b).low!);
    expect(buckets.length).toBe(10);
    const scores = buckets.map((range) => leadOf([buy('b1', 'AAA', 'A', range)], signals).score);
    for (let n = 1; n < scores.length; n++) expect(scores[n]!).toBeGreaterThan(scores[n - 1]!);
    const twice = leadOf([buy('b1', 'AAA', 'A'), buy('b2', 'AAA', 'A', '$15,001 - $50,000', '2026-01-06')], signals);
    expect(twice.score).toBeGreaterThan(leadOf([buy('b1', 'AAA', 'A')], signals).score);
    expect(twice.purchaseAmount).toBe((2 * (15_001 + 50_000)) / 2);
  });

  it('falls as the bearish share rises, bullish or neutral the rest', () => {
    const purchases = [buy('b1', 'AAA', 'A', '$100,001 - $250,000'), buy('b2', 'AAA', 'B')];
    for (const rest of ['BULLISH', 'NEUTRAL']) {
      const scores = Array.from(
        { length: 11 },
        (_, bearish) => leadOf(purchases, [...repeat('BEARISH', bearish), ...repeat(rest, 10 - bearish)]).score,
      );
      for (let n = 1; n < scores.length; n++) expect(scores[n]!).toBeLessThan(scores[n - 1]!);
    }
    // A neutral signal counts for a little: more than none, less than a bullish one.
    const neutral = leadOf(purchases, ['NEUTRAL', 'NEUTRAL']).score;
    expect(neutral).toBeGreaterThan(leadOf(purchases, ['NEUTRAL', 'BEARISH']).score);
    expect(neutral).toBeLessThan(leadOf(purchases, ['BULLISH', 'BULLISH']).score);
  });

  it('puts 5 bearish of 10 signals clearly below 10 bullish with the same purchases', () => {
    const purchases = [buy('b1', 'AAA', 'A', '$50,001 - $100,000'), buy('b2', 'AAA', 'B')];
    const bullish = leadOf(purchases, repeat('BULLISH', 10));
    for (const rest of ['BULLISH', 'NEUTRAL']) {
      const mixed = leadOf(purchases, [...repeat('BEARISH', 5), ...repeat(rest, 5)]);
      expect(mixed.totalSignals).toBe(bullish.totalSignals);
      expect(bullish.score - mixed.score).toBeGreaterThan(20);
      expect(mixed.scoreBreakdown.signals).toBeLessThanOrEqual(0);
    }
  });

  it('counts members, and stays below 100 but for the extreme', () => {
    const signals = repeat('BULLISH', 5);
    const one = leadOf([buy('b1', 'AAA', 'A'), buy('b2', 'AAA', 'A')], signals);
    const two = leadOf([buy('b1', 'AAA', 'A'), buy('b2', 'AAA', 'B')], signals);
    expect(two.score).toBeGreaterThan(one.score);
    expect(one.scoreBreakdown.members).toBe(0);
    // Three members, $1M-5M each, ten bullish signals: a strong lead, not a saturated one.
    const strong = leadOf(
      ['A', 'B', 'C'].map((member, n) => buy(`b${n}`, 'AAA', member, '$1,000,001 - $5,000,000')),
      repeat('BULLISH', 10),
    );
    expect(strong.score).toBeGreaterThan(90);
    expect(strong.score).toBeLessThan(99);
    // Ten members each buying over $50M with fifty bullish signals is what it takes to near 100.
    const extreme = leadOf(
      Array.from({ length: 10 }, (_, n) => buy(`b${n}`, 'AAA', `M${n}`, 'Over $50,000,000')),
      repeat('BULLISH', 50),
    );
    expect(extreme.score).toBeGreaterThan(99);
    expect(extreme.score).toBeLessThanOrEqual(100);
    const weakest = leadOf([buy('b1', 'AAA', 'A', '$1,001 - $15,000')], repeat('BEARISH', 20));
    expect(weakest.score).toBeGreaterThan(0);
  });

  it('orders by score, then dollars, purchases, signals and ticker, whatever the input order', () => {
    const purchases = [
      buy('a1', 'AAA', 'A', '$1,000,001 - $5,000,000'),
      buy('b1', 'BBB', 'A'),
      buy('c1', 'CCC', 'B'),
      buy('d1', 'DDD', 'C'),
      buy('z1', 'ZZZ', 'C'),
    ];
    const signals = [
      ...signalsOf('AAA', ['BULLISH', 'BULLISH']),
      ...signalsOf('BBB', ['NEUTRAL']),
      ...signalsOf('CCC', ['NEUTRAL']),
      ...signalsOf('DDD', ['BEARISH']),
      ...signalsOf('YYY', ['BULLISH']), // no purchase: no lead
    ];
    const leads = convergenceLeads(purchases, signals);
    expect(leads.map((lead) => lead.ticker)).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
    // BBB and CCC tie on everything: the ticker decides.
    expect(leads[1]!.score).toBe(leads[2]!.score);
    expect(convergenceLeads([...purchases].reverse(), [...signals].reverse())).toEqual(leads);
    expect(leads[0]).toMatchObject({ congressBuys: 1, totalSignals: 2, bullishSignals: 2, bearishSignals: 0 });
  });
});
