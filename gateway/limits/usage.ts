import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { ForbiddenError } from '../../subgraphs/platform/errors.ts';
import { z } from 'zod';
import { DAILY_ALLOWANCE, OVERAGE_PRICE_PER_CALL, PLANS } from '../../subgraphs/platform/plans.ts';

/** The caller's usage in the current period: the sandbox key's whole trial, or the account's live UTC day. */
export interface Usage {
  mode: Viewer['mode'];
  period: { start: string | null; end: string | null };
  calls: number;
  allowance: number;
  remaining: number;
  overageCalls: number;
  overageCost: number;
}

const DAY = 86_400_000;

/** The metering period of live calls: the UTC day, as the usage_counters.day column holds it. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function liveUsage(calls: number, viewer: Viewer, day: string): Usage {
  const allowance = DAILY_ALLOWANCE[viewer.plan];
  const overageCalls = Math.max(0, calls - allowance);
  const start = new Date(`${day}T00:00:00Z`);
  return {
    mode: 'live',
    period: { start: start.toISOString(), end: new Date(start.getTime() + DAY).toISOString() },
    calls,
    allowance,
    remaining: Math.max(0, allowance - calls),
    overageCalls,
    // Whole cents, computed in cents: 0.01 × n in floating point drifts.
    overageCost: (overageCalls * Math.round(OVERAGE_PRICE_PER_CALL * 100)) / 100,
  };
}

function sandboxUsage(calls: number, credits: number): Usage {
  return {
    mode: 'sandbox',
    period: { start: null, end: null },
    calls,
    allowance: credits,
    remaining: Math.max(0, credits - calls),
    overageCalls: 0,
    overageCost: 0,
  };
}

/**
 * Records one call, durably, in the control database: a sandbox key's lifetime count (refused with a 403
 * once its credits are spent, without counting), the key's last use, and the account's calls of the day.
 * One statement, so concurrent calls never both take the last credit. The usage meter (usage-meter.ts) sends
 * sandbox keys' calls here; live calls it counts in memory and writes in batches.
 */
export async function recordCall(
  control: Database,
  viewer: Viewer,
  sandboxCredits: number,
  now = new Date(),
): Promise<Usage> {
  const day = utcDay(now);
  if (!viewer.keyId) {
    const [row] = await control.sql.query<{ calls: number }>(
      `INSERT INTO usage_counters (account_id, mode, day, calls) VALUES ($1::uuid, $2, $3::date, 1)
       ON CONFLICT (account_id, mode, day) DO UPDATE SET calls = usage_counters.calls + 1
       RETURNING calls`,
      [viewer.accountId, viewer.mode, day],
    );
    return liveUsage(Number(row!.calls), viewer, day);
  }
  const credits = viewer.mode === 'sandbox' ? sandboxCredits : null;
  const [row] = await control.sql.query<{ calls: number; key_calls: number }>(
    `WITH used AS (
       UPDATE api_keys SET calls_used = calls_used + 1, last_used_at = $5::timestamptz
       WHERE id = $1::uuid AND ($4::int IS NULL OR calls_used < $4::int)
       RETURNING calls_used
     )
     INSERT INTO usage_counters (account_id, mode, day, calls)
     SELECT $2::uuid, $3, $6::date, 1 FROM used
     ON CONFLICT (account_id, mode, day) DO UPDATE SET calls = usage_counters.calls + 1
     RETURNING calls, (SELECT calls_used FROM used) AS key_calls`,
    [viewer.keyId, viewer.accountId, viewer.mode, credits, now.toISOString(), day],
  );
  if (!row) {
    throw new ForbiddenError(
      'trial_limit_reached',
      `This sandbox key has used all ${sandboxCredits} trial calls. Choose a plan to continue with a live key.`,
    );
  }
  return credits === null ? liveUsage(Number(row.calls), viewer, day) : sandboxUsage(Number(row.key_calls), credits);
}

/** The caller's current usage without recording a call. */
export async function readUsage(
  control: Database,
  viewer: Viewer,
  sandboxCredits: number,
  now = new Date(),
): Promise<Usage> {
  const day = utcDay(now);
  if (viewer.mode === 'sandbox' && viewer.keyId) {
    const [row] = await control.sql.query<{ calls_used: number }>(
      'SELECT calls_used FROM api_keys WHERE id = $1::uuid',
      [viewer.keyId],
    );
    return sandboxUsage(Number(row?.calls_used ?? 0), sandboxCredits);
  }
  const [row] = await control.sql.query<{ calls: number }>(
    'SELECT calls FROM usage_counters WHERE account_id = $1::uuid AND mode = $2 AND day = $3::date',
    [viewer.accountId, viewer.mode, day],
  );
  return liveUsage(Number(row?.calls ?? 0), viewer, day);
}

/** The usage headers every metered response carries. */
export function usageHeaders(usage: Usage): Record<string, string> {
  return {
    'x-usage-calls': String(usage.calls),
    'x-usage-allowance': String(usage.allowance),
    'x-usage-remaining': String(usage.remaining),
    'x-usage-overage': String(usage.overageCalls),
  };
}

/** The documented snake_case body of GET /api/v1/usage. */
export const UsageBody = z.strictObject({
  mode: z.enum(['live', 'sandbox']),
  plan: z.enum(PLANS),
  period: z.strictObject({ start: z.iso.datetime().nullable(), end: z.iso.datetime().nullable() }),
  calls: z.int(),
  allowance: z.int(),
  remaining: z.int(),
  overage_calls: z.int(),
  overage_cost: z.number(),
  overage_price_per_call: z.number(),
});

export function usageBody(usage: Usage, viewer: Viewer): z.input<typeof UsageBody> {
  return {
    mode: usage.mode,
    plan: viewer.plan,
    period: usage.period,
    calls: usage.calls,
    allowance: usage.allowance,
    remaining: usage.remaining,
    overage_calls: usage.overageCalls,
    overage_cost: usage.overageCost,
    overage_price_per_call: OVERAGE_PRICE_PER_CALL,
  };
}
