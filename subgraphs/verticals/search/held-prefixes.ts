/**
 * Whether the prefixes tier can find anything, read from the search vocabulary (migration search_vocabulary:
 * every distinct folded word of the searched texts, kept by triggers). A record begins a word with a query word
 * only if some vocabulary word does, so one query word that begins no vocabulary word rules the tier out: a query
 * found nowhere (`acme`) or only through its typos (`walkr`) skips that statement over six tables, whose planning
 * alone costs about a millisecond. Words of deleted records stay in the vocabulary, which only lets the tier run
 * and find nothing; so does a query word under three characters, which the tier keeps whole and this treats as a
 * prefix.
 *
 * A word begins with a prefix when the first vocabulary word at or after the prefix in byte order does (migration
 * search_words_bytewise, text_pattern_ops: the words beginning with it are one run there, and `~>=~`/`~<~`
 * compare bytes whatever the collation): an index probe per query word. It is a
 * column of the words tier's statement ($1 the query), which runs first anyway: no round trip of its own. With no
 * word at all (`&&`) it is false, as the tier finds no record for such a query.
 */
export const PREFIXES_HELD = `(SELECT coalesce(bool_and(coalesce(starts_with(
    (SELECT s.word FROM search_words s WHERE s.word ~>=~ w.word ORDER BY s.word USING ~<~ LIMIT 1),
    w.word), false)), false)
  FROM unnest(tsvector_to_array(to_tsvector('simple', verticals_search_text($1::text)))) AS w(word))`;
