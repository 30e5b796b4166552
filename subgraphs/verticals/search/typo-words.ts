/**
 * The words a record must hold to be a candidate of the typo tier, read from the search vocabulary (migration
 * search_vocabulary: every distinct folded word of the searched texts) instead of the trigram posting lists of
 * every record, which at 10M records per vertical took seconds and, for a word found nowhere, 95 s.
 *
 * A query word is held by a vocabulary word when word_similarity(query word, word) reaches HELD_WORD_SIMILARITY
 * (one wrong, missing or swapped letter: `walkr` in `walker` 0.67, `micrsoft` in `microsoft` 0.58, `kohc` in
 * `koch` 0.4). The typo condition asks the tier's threshold share of the whole query's trigrams of one run of the
 * record's words, and the query words a record holds can supply at most their own trigrams. So a record is a
 * candidate only when the query words it holds carry, together, at least that share of the query's trigrams:
 * `micrsoft corporation` needs both words (`corporation` alone is 12 of 21 trigrams, short of 0.7),
 * `shanahan & kohc` needs `shanahan` (9 of 14, past 0.6). A query word that a record has only across two of its
 * words (`herzgo` in `domingo hermann`) or only less similar than that does not count (docs/api.md).
 */

/** Set as the transaction's pg_trgm.word_similarity_threshold, which `%>` reads. */
export const HELD_WORD_SIMILARITY = 0.4;

/**
 * At most this many vocabulary words per query word, the most similar first: a short word (`jo`) is held by
 * thousands of words, and a full-text probe each would cost more than the typo condition saves.
 */
export const SIMILAR_WORDS_PER_WORD = 32;

/** Past this many query words the subsets are not enumerated: any held word makes a candidate. */
const MAX_ENUMERATED_WORDS = 10;

export interface QueryWord {
  word: string;
  trigrams: number;
  /** Vocabulary words holding it, most similar first. */
  similar: string[];
}

/** A row of QUERY_WORDS_SQL: a query word, and the distinct trigrams of the whole query (the same on every row). */
export type QueryWordRow = QueryWord & { query_trigrams: number };

/**
 * Each query word with its trigram count and the vocabulary words holding it ($1 the query), and on every row the
 * number of distinct trigrams of the whole query, which the threshold is a share of (one round trip for both).
 */
export const QUERY_WORDS_SQL = `
  SELECT w.word, cardinality(show_trgm(w.word)) AS trigrams,
         coalesce(array_agg(v.word ORDER BY v.similarity DESC, v.word) FILTER (WHERE v.word IS NOT NULL), '{}') AS similar,
         (SELECT cardinality(show_trgm(verticals_search_text($1::text)))) AS query_trigrams
    FROM unnest(tsvector_to_array(to_tsvector('simple', verticals_search_text($1::text)))) AS w(word)
    LEFT JOIN LATERAL (
      SELECT s.word, word_similarity(w.word, s.word) AS similarity FROM search_words s WHERE s.word %> w.word
       ORDER BY similarity DESC, s.word LIMIT ${SIMILAR_WORDS_PER_WORD}) v ON true
   GROUP BY w.word`;

/** A word as a tsquery operand: quoted, with quotes and backslashes escaped. */
const operand = (word: string) => `'${word.replace(/['\\]/g, '\\$&')}'`;

const trigramsOf = (words: readonly QueryWord[]) => words.reduce((sum, word) => sum + word.trigrams, 0);

/** The smallest sets of query words whose trigrams reach `needed` (no word of a set can be left out). */
function minimalSets(words: readonly QueryWord[], needed: number): QueryWord[][] {
  const sets: QueryWord[][] = [];
  for (let mask = 1; mask < 1 << words.length; mask++) {
    const set = words.filter((_, index) => mask & (1 << index));
    const sum = trigramsOf(set);
    if (sum >= needed && set.every((word) => sum - word.trigrams < needed)) sets.push(set);
  }
  return sets;
}

/**
 * The candidates' words as a tsquery (`('walker' | 'walke') & ('smith' | 'smyth') | …`), or null when no record
 * can match: no query word is held by any vocabulary word, or the held ones cannot reach the threshold together.
 */
export function typoCandidateQuery(
  words: readonly QueryWord[],
  queryTrigrams: number,
  threshold: number,
): string | null {
  const held = words.filter((word) => word.similar.length > 0);
  const anyOf = (word: QueryWord) => `(${word.similar.map(operand).join(' | ')})`;
  if (held.length > MAX_ENUMERATED_WORDS) return held.map(anyOf).join(' | ');
  const sets = minimalSets(held, threshold * queryTrigrams);
  if (sets.length === 0) return null;
  return sets.map((set) => `(${set.map(anyOf).join(' & ')})`).join(' | ');
}
