import { z } from 'zod';
import type { SqlClient } from '../platform/database.ts';
import { BadRequestError } from '../platform/errors.ts';

/** The trades `committee` filter: a full committee's name as members list it; the longest real one is 104 characters. */
export const committeeName = z
  .string()
  .trim()
  .min(1, 'must be a committee name')
  .max(150, 'must be at most 150 characters');

/**
 * The members who sit on a committee, named as on a member (`Armed Services`, any case). Committee names are a
 * small closed set, so a name no member carries is a 400 rather than an empty list: a typo should not read as
 * "no trades". At most a few dozen ids (a committee's seats), read from the ~540 members.
 */
export async function committeeMemberIds(sql: SqlClient, committee: string): Promise<string[]> {
  const rows = await sql.query<{ bioguide_id: string }>(
    `SELECT bioguide_id FROM members
     WHERE EXISTS (SELECT 1 FROM unnest(committees) AS seat(name) WHERE lower(seat.name) = lower($1))`,
    [committee],
  );
  if (rows.length === 0) {
    throw new BadRequestError({
      committee: 'no member sits on a committee of that name (full committees, named as in a member’s committees)',
    });
  }
  return rows.map((row) => row.bioguide_id);
}
