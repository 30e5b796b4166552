import { describe, expect, it } from 'vitest';
import { convergenceLeads } from '../../subgraphs/markets/convergence-score.ts';
import { disclosureLagDays, isLateDisclosure, parseAmountRange } from '../../subgraphs/markets/disclosure.ts';
import { escapeHtml } from '../../subgraphs/markets/briefing-html.ts';
import { foldName, nameTokens, normalizeName } from '../../subgraphs/markets/names.ts';

describe('member names', () => {
  it('folds accents, case and punctuation', () => {
    expect(foldName('Nydia M. Velázquez')).toBe('nydia m velazquez');
    expect(foldName("Beto O'Rourke")).toBe('beto orourke');
    expect(foldName('Alexandria Ocasio-Cortez')).toBe('alexandria ocasio cortez');
  });

  it('puts "Last, First" in first-last order and drops honorifics', () => {
    expect(normalizeName('Pelosi, Nancy')).toBe('nancy pelosi');
    expect(normalizeName('nancy pelosi')).toBe('nancy pelosi');
    expect(normalizeName('Hon. Nancy Pelosi')).toBe('nancy pelosi');
    expect(normalizeName('Sen. Ted Cruz')).toBe('ted cruz');
    // A comma before a suffix only is not "Last, First".
    expect(normalizeName('Mitchell McConnell, Jr.')).toBe('mitchell mcconnell');
    expect(normalizeName('McConnell, A. Mitchell, Jr.')).toBe('a mitchell mcconnell');
  });

  it('gives the words a name must contain, once each', () => {
    expect(nameTokens('PELOSI, Nancy')).toEqual(['nancy', 'pelosi']);
    expect(nameTokens('Rep.')).toEqual([]);
  });
});

describe('disclosure facts', () => {
  it('parses the disclosed amount buckets', () => {
    expect(parseAmountRange('$1,001 - $15,000')).toEqual({ low: 1001, high: 15000 });
    expect(parseAmountRange('$1,000,001 - $5,000,000')).toEqual({ low: 1000001, high: 5000000 });
    expect(parseAmountRange('Over $50,000,000')).toEqual({ low: 50000001, high: null });
    expect(parseAmountRange('$15,000')).toEqual({ low: 15000, high: 15000 });
    expect(parseAmountRange('unknown')).toEqual({ low: null, high: null });
  });

  it('measures the lag and flags disclosures past the 45-day STOCK Act deadline', () => {
    const trade = new Date('2026-01-01T00:00:00Z');
    expect(disclosureLagDays(trade, new Date('2026-02-15T00:00:00Z'))).toBe(45);
    expect(isLateDisclosure(45)).toBe(false);
    expect(isLateDisclosure(46)).toBe(true);
    expect(disclosureLagDays(trade, null)).toBeNull();
    expect(isLateDisclosure(null)).toBe(false);
  });
});

describe('convergence score', () => {
  const buy = (id: string, ticker: string, member: string, date: string) => ({
    id,
    ticker,
    bioguideId: member,
    memberName: `Member ${member}`,
    tradeDate: new Date(date),
  });
  const signal = (id: string, ticker: string, sentiment: string, at: string) => ({
    id,
    ticker,
    companyName: `${ticker} Inc.`,
    sentiment,
    createdAt: new Date(at),
  });

  it('scores members, purchases and signals with their caps, and orders deterministically', () => {
    const purchases = [
      ...['A', 'B', 'C', 'D'].map((member, index) => buy(`b${index}`, 'AAA', member, `2026-01-0${index + 1}`)),
      buy('b9', 'AAA', 'A', '2026-01-09'),
      buy('c1', 'BBB', 'A', '2026-01-01'),
      buy('d1', 'CCC', 'B', '2026-01-01'),
      buy('e1', 'DDD', 'C', '2026-01-01'),
    ];
    const signals = [
      ...[1, 2, 3, 4].map((n) => signal(`s${n}`, 'AAA', 'BULLISH', `2026-01-1${n}`)),
      signal('t1', 'BBB', 'NEUTRAL', '2026-01-10'),
      signal('u1', 'CCC', 'NEUTRAL', '2026-01-10'),
      signal('v1', 'ZZZ', 'BULLISH', '2026-01-10'), // no purchases: no lead
    ];
    const leads = convergenceLeads(purchases, signals);
    expect(leads.map((lead) => lead.ticker)).toEqual(['AAA', 'BBB', 'CCC']);
    // 4 members → 60 capped at 45; 5 purchases → 25 capped at 20; 4 bullish → 40 capped at 35.
    expect(leads[0]).toMatchObject({
      score: 100,
      scoreBreakdown: { members: 45, purchases: 20, signals: 35 },
      congressBuys: 5,
    });
    expect(leads[0]!.congressMembers).toEqual(['Member A', 'Member B', 'Member C', 'Member D']);
    expect(leads[0]!.lastPurchaseDate.toISOString().slice(0, 10)).toBe('2026-01-09');
    // BBB and CCC tie on everything: ticker order decides.
    expect(leads[1]).toMatchObject({ ticker: 'BBB', score: 15 + 5 + 4 });
    expect(convergenceLeads([...purchases].reverse(), [...signals].reverse())).toEqual(leads);
  });
});

describe('HTML escaping', () => {
  it('escapes every markup character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
