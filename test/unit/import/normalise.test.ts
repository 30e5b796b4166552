import { describe, expect, it } from 'vitest';
import { RecordRejection } from '../../../gateway/import/importer.ts';
import { parseDate } from '../../../gateway/import/normalise/dates.ts';
import { MemberMatcher, displayName } from '../../../gateway/import/normalise/members.ts';
import type { MemberIdentity } from '../../../gateway/import/normalise/members.ts';
import { normaliseTicker, parseOptionSymbol } from '../../../gateway/import/normalise/tickers.ts';
import {
  classifyAsset,
  normaliseOwner,
  normaliseTradeType,
  parseAmount,
} from '../../../gateway/import/normalise/trade-fields.ts';
import { parseItems } from '../../../gateway/import/sec/eight-k-items.ts';

const member = (
  bioguideId: string,
  fullName: string,
  lastName: string,
  chamber: string,
  state: string,
  nameFolded: string,
  inOffice = true,
): MemberIdentity => ({
  bioguideId,
  fullName,
  lastName,
  chamber,
  state,
  party: 'R',
  nameFolded,
  inOffice,
});

const MEMBERS = [
  member('B001236', 'John Boozman', 'Boozman', 'senate', 'AR', 'john boozman john boozman'),
  member('K000377', 'Mark Kelly', 'Kelly', 'senate', 'AZ', 'mark kelly mark kelly'),
  member('C001098', 'Ted Cruz', 'Cruz', 'senate', 'TX', 'ted cruz ted cruz'),
  member('C001075', 'Bill Cassidy', 'Cassidy', 'senate', 'LA', 'bill cassidy bill cassidy'),
  member('M001136', 'Lisa McClain', 'McClain', 'house', 'MI', 'lisa mcclain lisa mcclain'),
  member(
    'M001232',
    'April McClain Delaney',
    'McClain Delaney',
    'house',
    'MD',
    'april mcclain delaney april mcclain delaney',
  ),
  member('D000628', 'Neal Dunn', 'Dunn', 'house', 'FL', 'neal p dunn neal p dunn'),
  member('V000081', 'Nydia Velázquez', 'Velázquez', 'house', 'NY', 'nydia m velazquez nydia m velazquez'),
];

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof RecordRejection) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('member names', () => {
  const matcher = new MemberMatcher(MEMBERS);
  const id = (name: string, chamber = 'senate', state?: string) =>
    matcher.match(name, chamber, state)?.member.bioguideId ?? null;

  it('matches every written form of one name to one member', () => {
    for (const name of [
      'Boozman, John',
      'John Boozman',
      'Sen. John Boozman',
      'HON. JOHN BOOZMAN',
      'John N. Boozman, Jr.',
    ]) {
      expect(id(name), name).toBe('B001236');
    }
    expect(id('William Cassidy')).toBe('C001075');
    expect(id('Rafael Edward (Ted) Cruz')).toBe('C001098');
    expect(id('Neal Patrick MD, Facs Dunn', 'house', 'FL')).toBe('D000628');
    expect(id('Nydia Velazquez', 'house')).toBe('V000081');
  });

  it('does not take a shared word for a match', () => {
    expect(id('Kelly Loeffler')).toBeNull();
    expect(id('April McClain Delaney', 'house')).toBe('M001232');
    expect(id('Lisa McClain', 'house')).toBe('M001136');
    expect(id('John Boozman', 'house')).toBeNull();
  });

  it('tells a member in office from former members of the same name, and says why a name matches none', () => {
    const withFormer = new MemberMatcher([
      ...MEMBERS,
      member('T000476', 'Thom Tillis', 'Tillis', 'senate', 'NC', 'thom tillis thom tillis'),
      member('T000162', 'Craig Thomas', 'Thomas', 'senate', 'WY', 'craig thomas', false),
      member('C001129', 'Mike Collins', 'Collins', 'house', 'GA', 'mike collins mike collins'),
      member('C000640', 'Mac Collins', 'Collins', 'house', 'GA', 'michael allen mac collins', false),
    ]);
    const match = (name: string, chamber = 'senate', state?: string) =>
      withFormer.match(name, chamber, state)?.member.bioguideId ?? null;
    // The surname that ends the name wins over a surname used as a given name (Thomas).
    expect(match('Thomas R Tillis')).toBe('T000476');
    expect(match('Michael Collins', 'house', 'GA')).toBe('C001129');
    expect(withFormer.unmatchedReason('Kelly Loeffler', 'senate')).toMatch(/Mark Kelly \(K000377\)/);
    expect(withFormer.unmatchedReason('Thomas Carper', 'senate')).toMatch(/surname/);
    expect(withFormer.unmatchedReason('Thomas R Tillis', 'senate')).toBeNull();
  });

  it('names an unmatched member "<first> <last>"', () => {
    expect(displayName('David A Perdue , Jr')).toBe('David Perdue');
    expect(displayName('Boozman, John')).toBe('John Boozman');
    expect(displayName('THOMAS R CARPER')).toBe('Thomas Carper');
  });
});

describe('trade fields', () => {
  it('maps owner codes and words to one vocabulary', () => {
    const owners = ['SP', 'Spouse', 'JT', 'Joint', 'DC', 'Child', 'Dependent Child', 'Self', ''].map(normaliseOwner);
    expect(owners).toEqual([
      'spouse',
      'spouse',
      'joint',
      'joint',
      'dependent',
      'dependent',
      'dependent',
      'self',
      'self',
    ]);
    expect(rejection(() => normaliseOwner('N/A'))).toBe('unknown_owner');
  });

  it('maps sale kinds', () => {
    expect(['Purchase', 'Sale (Full)', 'Sale (Partial)', 'Sale', 'Exchange'].map(normaliseTradeType)).toEqual([
      'purchase',
      'sale',
      'sale_partial',
      'sale',
      'exchange',
    ]);
    expect(rejection(() => normaliseTradeType('N/A'))).toBe('unknown_trade_type');
  });

  it('parses amount buckets and rejects what is not one', () => {
    expect(parseAmount('$1,001 - $15,000')).toEqual({ range: '$1,001 - $15,000', low: 1001, high: 15000 });
    expect(parseAmount('Over $50,000,000')).toMatchObject({ low: 50000001, high: null });
    expect(rejection(() => parseAmount('$3,001 - $15,000'))).toBe('unparseable_amount');
    expect(rejection(() => parseAmount('Unknown'))).toBe('unparseable_amount');
  });

  it('handles placeholder and class-share tickers', () => {
    expect(['--', '', null, 'N/A', ' '].map((ticker) => normaliseTicker(ticker))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(['BRK.B', 'BRK-B', 'brk/b', 'BRK B'].map((ticker) => normaliseTicker(ticker))).toEqual([
      'BRK-B',
      'BRK-B',
      'BRK-B',
      'BRK-B',
    ]);
    expect(normaliseTicker('BRKB', new Set(['BRK-B']))).toBe('BRK-B');
    expect(normaliseTicker('BRKB')).toBe('BRKB');
    expect(normaliseTicker('NA')).toBe('NA');
  });

  it('keeps option trades apart from stock trades', () => {
    expect(parseOptionSymbol('SPY160219P00180000')).toEqual({
      underlying: 'SPY',
      expiry: '2016-02-19',
      right: 'put',
      strike: 180,
    });
    expect(classifyAsset('Stock Option', 'Apple call option strike 150', 'AAPL').assetType).toBe('option');
    expect(classifyAsset(null, 'NVIDIA Corporation - Common Stock', 'NVDA')).toEqual({
      assetType: 'stock',
      optionDetail: null,
    });
    expect(classifyAsset(null, 'Microsoft Corp. Call Options, strike $400, exp 01/17/2025', 'MSFT').assetType).toBe(
      'option',
    );
    expect(classifyAsset('Corporate Bond', 'Apple 3.85% 2043', null).assetType).toBe('bond');
  });

  it('parses dates in the files’ forms and refuses days that do not exist', () => {
    expect(['11/10/2020', '1/2/90', '12/29/23', '2023-09-01'].map((text) => parseDate(text, 'd'))).toEqual([
      '2020-11-10',
      '1990-01-02',
      '2023-12-29',
      '2023-09-01',
    ]);
    expect(rejection(() => parseDate('30/01/2025', 'd'))).toBe('unparseable_date');
    expect(rejection(() => parseDate('02/30/2025', 'd'))).toBe('unparseable_date');
  });

  it('reads 8-K item lists', () => {
    expect(parseItems('2.02,9.01')).toEqual(['2.02', '9.01']);
    expect(parseItems('5.07, 8.01,9.01,')).toEqual(['5.07', '8.01', '9.01']);
    expect(parseItems('')).toEqual([]);
  });
});
