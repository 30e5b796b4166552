import { z } from 'zod';
import type { SqlClient } from '../platform/database.ts';
import { BadRequestError } from '../platform/errors.ts';
import { tierCondition } from './member-match.ts';
import { nameTokens } from './names.ts';

/** At most this many distinct insiders per `insider` filter: the list filters on their names. */
export const MAX_INSIDER_NAMES = 1000;

/**
 * A partial insider name (Form 4 writes "Last First Middle"): at most 100 characters, with a word of at least
 * three letters, so the trigram index finds the candidates instead of a scan of every transaction.
 */
export const insiderQuery = z
  .string()
  .max(100, 'must be at most 100 characters')
  .refine((value) => nameTokens(value).some((token) => token.length >= 3), 'must contain a name of at least 3 letters');

/**
 * The distinct reporting-owner names that contain every word of the query (any order, any case, accents folded:
 * the member-name rule over `markets_fold_name(owner_name)`). Too broad a query is a 400 rather than a list of
 * thousands of names.
 */
export async function matchingInsiderNames(sql: SqlClient, query: string): Promise<string[]> {
  const match = tierCondition('markets_fold_name(owner_name)', 'words', nameTokens(query), 1);
  const rows = await sql.query<{ owner_name: string }>(
    `SELECT DISTINCT owner_name FROM insider_transactions WHERE ${match.condition} LIMIT ${MAX_INSIDER_NAMES + 1}`,
    match.params,
  );
  if (rows.length > MAX_INSIDER_NAMES) {
    throw new BadRequestError({
      insider: `matches more than ${MAX_INSIDER_NAMES} insiders; give more of the name`,
    });
  }
  return rows.map((row) => row.owner_name);
}
