import { z } from 'zod';
import type { SqlClient } from '../platform/database.ts';
import { nameTokens, normalizeName } from './names.ts';

/**
 * THE member-name match, used by the `member` filter of trades and by member search: a name matches when its
 * folded form (SQL `markets_fold_name`, backed by trigram GIN indexes) contains every word of the query, in
 * any order, any case, accents folded; matches rank by trigram similarity to the whole query.
 */
export interface NameMatch {
  /** A boolean SQL expression over the column, with its parameters. */
  condition: string;
  params: string[];
  /** A 0-1 SQL expression: how close the name is to the query; its parameter follows `params`. */
  rank: string;
  rankParams: string[];
}

/** A partial member name: at most 100 characters, with at least one word left after normalising. */
export const memberQuery = z
  .string()
  .max(100, 'must be at most 100 characters')
  .refine((value) => nameTokens(value).length > 0, 'must contain a name');

/**
 * `matchColumn` is what the words must be found in (an indexed expression); `rankColumn` the name the
 * similarity is measured against (for members: all name forms are searched, the full name ranks).
 */
export function memberNameMatch(
  matchColumn: string,
  rankColumn: string,
  query: string,
  firstParameter: number,
): NameMatch {
  const tokens = nameTokens(query);
  const folded = `markets_fold_name(${matchColumn})`;
  // Tokens hold only [a-z0-9], so they need no LIKE escaping.
  const condition = tokens.map((_, index) => `${folded} LIKE $${firstParameter + index}`).join(' AND ');
  const rank = `similarity(markets_fold_name(${rankColumn}), $${firstParameter + tokens.length})`;
  return { condition, params: tokens.map((token) => `%${token}%`), rank, rankParams: [normalizeName(query)] };
}

/**
 * The distinct disclosed member names of trades that match a partial name (the trades `member` filter). The
 * distinct names are read by skipping through the member_name index, one probe per name, and matched after:
 * matching the trades first read every trade of the member (a member with 25k trades at 1M: 786 ms; the
 * skip: ~150 probes, under 10 ms at any number of trades).
 */
export async function matchingTradeMemberNames(sql: SqlClient, query: string): Promise<string[]> {
  const match = memberNameMatch('member_name', 'member_name', query, 1);
  const rows = await sql.query<{ member_name: string }>(
    `WITH RECURSIVE names(member_name) AS (
       (SELECT member_name FROM congressional_trades ORDER BY member_name LIMIT 1)
       UNION ALL
       SELECT (SELECT c.member_name FROM congressional_trades c WHERE c.member_name > n.member_name
                ORDER BY c.member_name LIMIT 1)
         FROM names n WHERE n.member_name IS NOT NULL)
     SELECT member_name FROM names WHERE member_name IS NOT NULL AND ${match.condition}`,
    match.params,
  );
  return rows.map((row) => row.member_name);
}

/** Members matching a partial name, best match first: bioguide ids and their similarity. */
export async function searchMembers(
  sql: SqlClient,
  query: string,
  limit: number,
): Promise<{ bioguideId: string; similarity: number }[]> {
  const match = memberNameMatch('coalesce(name_folded, full_name)', 'full_name', query, 1);
  const rows = await sql.query<{ bioguide_id: string; similarity: number }>(
    `SELECT bioguide_id, ${match.rank} AS similarity FROM members WHERE ${match.condition}
     ORDER BY similarity DESC, full_name, bioguide_id LIMIT $${match.params.length + 2}`,
    [...match.params, ...match.rankParams, limit],
  );
  return rows.map((row) => ({ bioguideId: row.bioguide_id, similarity: Number(row.similarity) }));
}
