import { z } from 'zod';
import type { SqlClient } from '../platform/database.ts';
import { chamberOfTitle, nameTokens } from './names.ts';

/**
 * THE member-name match, used by the `member` filter of trades and by member search. The query is folded and
 * stripped of titles (names.ts); its words are matched in two tiers, the second only when the first finds no
 * name at all:
 * - `words`: the folded name contains every word (partial words too: `pelo`), through the trigram GIN indexes
 *   on the folded names (LIKE);
 * - `typos`: every word is in the name or within its typo budget of one of the name's words (typoBudget,
 *   fuzzystrmatch's levenshtein_less_equal: one edit at 4-5 letters, two from 6, so `pelosy`, `tubervile`, `gotheimer`,
 *   `kahnna`, `crenshw` find Pelosi, Tuberville, Gottheimer, Khanna, Crenshaw). Edit distance has no index: this
 *   tier reads the names whole — the members table (one row per member of Congress, ~1,300) or the distinct
 *   names of trades — and runs only when the indexed tier found nothing.
 * A typo never widens a query that matches as written: `warren` is never `darren`.
 */
export type Tier = 'words' | 'typos';
export const TIERS: readonly Tier[] = ['words', 'typos'];

/** A partial member name: at most 100 characters, with at least one word left after normalising. */
export const memberQuery = z
  .string()
  .max(100, 'must be at most 100 characters')
  .refine((value) => nameTokens(value).length > 0, 'must contain a name');

/**
 * How many matching members are ranked by activity: the closest names, before their trades are counted (one
 * index-only count each). Activity orders members of equal similarity within them.
 */
export const RANKED_POOL = 100;

/**
 * The typos a query word may carry: none below 4 letters (too many names are that close), one at 4-5 letters,
 * two from 6 ("kahnna" → "khanna", a swap, is two edits).
 */
export function typoBudget(word: string): number {
  if (word.length >= 6) return 2;
  return word.length >= 4 ? 1 : 0;
}

/** A boolean SQL expression over the folded name `folded`: every query word matches, in this tier's way. */
export function tierCondition(folded: string, tier: Tier, tokens: readonly string[], firstParameter: number) {
  // Tokens hold only [a-z0-9], so they need no LIKE escaping.
  const condition = tokens
    .map((token, index) => {
      const parameter = `$${firstParameter + index}`;
      if (tier === 'words') return `${folded} LIKE ${parameter}`;
      const budget = typoBudget(token);
      return `(strpos(${folded}, ${parameter}) > 0 OR EXISTS (
        SELECT 1 FROM unnest(string_to_array(${folded}, ' ')) AS name_word
        WHERE levenshtein_less_equal(name_word, ${parameter}, ${budget}) <= ${budget}))`;
    })
    .join(' AND ');
  return { condition, params: tier === 'words' ? tokens.map((token) => `%${token}%`) : [...tokens] };
}

/** 0-1: pg_trgm's word_similarity of each query word to the folded name, averaged (1 for whole words). */
function similarity(folded: string, tokensParameter: number): string {
  return `(SELECT avg(word_similarity(word, ${folded})) FROM unnest($${tokensParameter}::text[]) AS word)`;
}

/**
 * The distinct disclosed member names of trades that match a partial name (the trades `member` filter). The
 * distinct names are read by skipping through the member_name index, one probe per name, and matched after:
 * matching the trades first read every trade of the member (a member with 25k trades at 1M: 786 ms; the
 * skip: ~150 probes, under 10 ms at any number of trades).
 */
export async function matchingTradeMemberNames(sql: SqlClient, query: string): Promise<string[]> {
  const tokens = nameTokens(query);
  for (const tier of TIERS) {
    const match = tierCondition('folded', tier, tokens, 1);
    const rows = await sql.query<{ member_name: string }>(
      `WITH RECURSIVE names(member_name) AS (
         (SELECT member_name FROM congressional_trades ORDER BY member_name LIMIT 1)
         UNION ALL
         SELECT (SELECT c.member_name FROM congressional_trades c WHERE c.member_name > n.member_name
                  ORDER BY c.member_name LIMIT 1)
           FROM names n WHERE n.member_name IS NOT NULL)
       SELECT member_name FROM (SELECT member_name, markets_fold_name(member_name) AS folded FROM names
                                WHERE member_name IS NOT NULL) AS named
       WHERE ${match.condition}`,
      match.params,
    );
    if (rows.length > 0) return rows.map((row) => row.member_name);
  }
  return [];
}

/**
 * Members matching a partial name, best first: members of the chamber a title names (`Sen. Warren`), then by
 * similarity, then by activity (trades in force, returned with each member), then by name.
 */
export async function searchMembers(
  sql: SqlClient,
  query: string,
  limit: number,
): Promise<{ bioguideId: string; similarity: number; trades: number }[]> {
  const tokens = nameTokens(query);
  for (const tier of TIERS) {
    // The indexed expression for the indexed tier; the typo tier reads every row, and name_folded is stored
    // folded (foldName, the same folding), which spares unaccent on each row.
    const folded =
      tier === 'words'
        ? 'markets_fold_name(coalesce(name_folded, full_name))'
        : 'coalesce(name_folded, markets_fold_name(full_name))';
    const match = tierCondition(folded, tier, tokens, 1);
    const next = tokens.length + 1;
    const rows = await sql.query<{ bioguide_id: string; similarity: number; trades: number }>(
      `WITH matched AS (
         SELECT bioguide_id, full_name, coalesce(chamber = $${next + 1}::text, false) AS titled,
                ${similarity(folded, next)} AS similarity
         FROM members WHERE ${match.condition}
         ORDER BY titled DESC, similarity DESC, full_name, bioguide_id LIMIT ${RANKED_POOL}),
       counted AS (
         SELECT matched.*, coalesce((SELECT t.trades FROM market_member_trades t
                                      WHERE t.bioguide_id = matched.bioguide_id), 0) AS trades
         FROM matched)
       SELECT bioguide_id, similarity, trades FROM counted
       ORDER BY titled DESC, similarity DESC, trades DESC, full_name, bioguide_id
       LIMIT $${next + 2}`,
      [...match.params, tokens, chamberOfTitle(query) ?? null, limit],
    );
    if (rows.length > 0)
      return rows.map((row) => ({
        bioguideId: row.bioguide_id,
        similarity: Number(row.similarity),
        trades: Number(row.trades),
      }));
  }
  return [];
}
