import type { SqlClient } from '../database.ts';

/** Whether endpoint `w` may be sent something at all: enabled, and not suspended by its account's plan or standing. */
const endpointReachable = (w: string) => `${w}.enabled AND ${w}.suspended_reason IS NULL`;

/** Whether endpoint `w` is verified at the URL it has now (docs/webhooks.md "Verification"). */
const endpointVerified = (w: string) => `${w}.verified_url IS NOT DISTINCT FROM ${w}.url`;

/** Whether an endpoint may be sent anything (docs/webhooks.md "Verification" and "Plan changes"). */
export const endpointActive = (w: string) => `(${endpointReachable(w)} AND ${endpointVerified(w)})`;

/**
 * Whether the worker may send delivery `d` to endpoint `w`: an active endpoint takes anything, an unverified one
 * only its verification ping (a delivery queued before its URL changed waits until the new URL is verified).
 */
export const endpointTakes = (w: string, d: string) =>
  `(${endpointReachable(w)} AND (${endpointVerified(w)} OR ${d}.purpose = 'verification'))`;

/** Why an account's endpoints are suspended: its plan does not reach webhooks, or the account is disabled. */
export type SuspensionReason = 'plan_excludes_webhooks' | 'account_disabled';

export interface StandingApplied {
  suspended: number;
  resumed: number;
  cancelled: number;
}

/**
 * Suspends the account's endpoints (`reason`) or lifts a suspension (`null`), keeping everything else about them.
 * Suspending cancels their pending deliveries in the same statement, so none is sent after it commits; one already
 * being attempted finishes, and the worker sends nothing more to a suspended endpoint.
 */
export async function applyEndpointStanding(
  sql: SqlClient,
  accountId: string,
  reason: SuspensionReason | null,
): Promise<StandingApplied> {
  const [row] = await sql.query<StandingApplied>(
    `WITH changed AS (
       UPDATE webhook_endpoints SET suspended_reason = $2
        WHERE account_id = $1 AND suspended_reason IS DISTINCT FROM $2
       RETURNING id, $2::text IS NOT NULL AS suspended),
     cancelled AS (
       UPDATE webhook_deliveries d SET status = 'cancelled', next_attempt_at = NULL,
              last_error = 'cancelled: the endpoint is suspended (' || $2 || ')'
         FROM webhook_endpoints w
        WHERE $2::text IS NOT NULL AND w.account_id = $1 AND d.endpoint_id = w.id AND d.status = 'pending'
       RETURNING d.id)
     SELECT (SELECT count(*)::int FROM changed WHERE suspended) AS suspended,
            (SELECT count(*)::int FROM changed WHERE NOT suspended) AS resumed,
            (SELECT count(*)::int FROM cancelled) AS cancelled`,
    [accountId, reason],
  );
  return row!;
}
