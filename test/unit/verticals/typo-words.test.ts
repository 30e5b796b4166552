import { describe, expect, it } from 'vitest';
import { typoCandidateQuery } from '../../../subgraphs/verticals/search/typo-words.ts';

/** Which query words a typo-tier candidate must hold (verticals/search/typo-words.ts): the pure part, no database. */
const word = (text: string, trigrams: number, similar: string[]) => ({ word: text, trigrams, similar });

describe('the typo tier’s candidate words', () => {
  it('asks for every word when no smaller set of held words reaches the threshold', () => {
    const words = [word('micrsoft', 9, ['microsoft']), word('corporation', 12, ['corporation', 'corporations'])];
    expect(typoCandidateQuery(words, 21, 0.7)).toBe("(('microsoft') & ('corporation' | 'corporations'))");
  });

  it('asks for any minimal set that reaches it, never a superset of one', () => {
    const words = [word('shanahan', 9, ['shanahan']), word('kohc', 5, ['koch', 'kohl'])];
    expect(typoCandidateQuery(words, 14, 0.6)).toBe("(('shanahan'))");
    const three = [word('aa', 5, ['a1']), word('bb', 5, ['b1']), word('cc', 5, ['c1'])];
    expect(typoCandidateQuery(three, 15, 0.6)).toBe("(('a1') & ('b1')) | (('a1') & ('c1')) | (('b1') & ('c1'))");
  });

  it('answers null when the held words cannot reach the threshold or none is held', () => {
    expect(typoCandidateQuery([word('acme', 5, [])], 5, 0.45)).toBeNull();
    expect(typoCandidateQuery([word('corporation', 12, ['corporation']), word('zzqxv', 6, [])], 18, 0.7)).toBeNull();
  });

  it('quotes words so that none can break out of the query', () => {
    expect(typoCandidateQuery([word('o', 2, ["o'brien", 'back\\slash'])], 2, 0.45)).toBe(
      "(('o\\'brien' | 'back\\\\slash'))",
    );
  });
});
