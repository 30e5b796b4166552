import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertGranted } from './grants.ts';
import { DAILY_USAGE_DAYS, dailyUsage } from '../limits/daily-usage.ts';
import { UsageBody, usageBody } from '../limits/usage.ts';
import { defineRoute } from '../rest/define-route.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import type { Database } from '../../subgraphs/platform/database.ts';

const DailyQuery = z.strictObject({
  days: z.coerce
    .number('must be a whole number')
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(DAILY_USAGE_DAYS.max, `must be at most ${DAILY_USAGE_DAYS.max}`)
    .default(DAILY_USAGE_DAYS.default),
});

const DailyUsageBody = z.strictObject({
  mode: z.enum(['live', 'sandbox']),
  from: z.iso.date(),
  to: z.iso.date(),
  days: z.array(z.strictObject({ date: z.iso.date(), calls: z.int() })),
});

const readUsage = (request: FastifyRequest) => assertGranted(request.viewer!, 'read_usage');

export const USAGE_ROUTES = {
  /**
   * The caller's usage in the current period, this call included. Live counts are written first, so the answer
   * and usage_counters agree and include what other processes have written.
   */
  current: defineRoute({
    method: 'GET',
    path: '/api/v1/usage',
    tag: 'Account',
    operationId: 'Usage',
    summary: "The caller's calls in the current period: the sandbox key's trial, or the account's live UTC day.",
    access: readUsage,
    response: UsageBody,
  }),
  /**
   * The account's calls per UTC day (the account dashboard's chart reads the same rows), of the credential's own
   * mode: live for a session or live key, sandbox for a sandbox key.
   */
  daily: defineRoute({
    method: 'GET',
    path: '/api/v1/usage/daily',
    tag: 'Account',
    operationId: 'DailyUsage',
    summary: "The account's calls per UTC day, oldest first, in the credential's mode.",
    access: readUsage,
    query: DailyQuery,
    response: DailyUsageBody,
  }),
};

export function registerUsageRoute(app: FastifyInstance, meter: UsageMeter, control: Database) {
  USAGE_ROUTES.current.register(app, async (_input, request) => {
    await meter.flush();
    return usageBody(await meter.read(request.viewer!), request.viewer!);
  });

  USAGE_ROUTES.daily.register(app, async ({ query }, request) => {
    const viewer = request.viewer!;
    await meter.flush();
    const usage = await dailyUsage(control, viewer.accountId, query.days);
    return {
      mode: viewer.mode,
      from: usage[0]!.date,
      to: usage.at(-1)!.date,
      days: usage.map((day) => ({ date: day.date, calls: day.calls[viewer.mode] })),
    } satisfies z.input<typeof DailyUsageBody>;
  });
}
