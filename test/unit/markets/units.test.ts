import { describe, expect, it } from 'vitest';
import { disclosureLagDays, isLateDisclosure, parseAmountRange } from '../../../subgraphs/markets/disclosure.ts';
import { escapeHtml } from '../../../subgraphs/markets/briefing-html.ts';
import { foldName, nameTokens, normalizeName } from '../../../subgraphs/markets/names.ts';

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

describe('HTML escaping', () => {
  it('escapes every markup character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
