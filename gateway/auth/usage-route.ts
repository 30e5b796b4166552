import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { assertGranted } from './grants.ts';
import { parseRequestInput } from './request-input.ts';
import { DAILY_USAGE_DAYS, dailyUsage } from '../limits/daily-usage.ts';
import { UsageBody, usageBody } from '../limits/usage.ts';
import type { HandWrittenRoute } from '../openapi/hand-written-route.ts';
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

/** The usage routes as the OpenAPI document states them. */
export const USAGE_ROUTES: HandWrittenRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/usage',
    operationId: 'Usage',
    summary: "The caller's calls in the current period: the sandbox key's trial, or the account's live UTC day.",
    response: UsageBody,
  },
  {
    method: 'GET',
    path: '/api/v1/usage/daily',
    operationId: 'DailyUsage',
    summary: "The account's calls per UTC day, oldest first, in the credential's mode.",
    query: DailyQuery,
    response: DailyUsageBody,
  },
];

/**
 * GET /api/v1/usage: the caller's usage in the current period, this call included. Live counts are written
 * first, so the answer and usage_counters agree and include what other processes have written.
 * GET /api/v1/usage/daily: the account's calls per UTC day (the account dashboard's chart reads the same rows),
 * of the credential's own mode: live for a session or live key, sandbox for a sandbox key.
 */
export function registerUsageRoute(app: FastifyInstance, meter: UsageMeter, control: Database) {
  app.get('/api/v1/usage', async (request) => {
    assertGranted(request.viewer!, 'read_usage');
    parseRequestInput(request, {});
    await meter.flush();
    return usageBody(await meter.read(request.viewer!), request.viewer!);
  });

  app.get('/api/v1/usage/daily', async (request) => {
    const viewer = request.viewer!;
    assertGranted(viewer, 'read_usage');
    const { days } = parseRequestInput(request, { query: DailyQuery }).query;
    await meter.flush();
    const usage = await dailyUsage(control, viewer.accountId, days);
    return {
      mode: viewer.mode,
      from: usage[0]!.date,
      to: usage.at(-1)!.date,
      days: usage.map((day) => ({ date: day.date, calls: day.calls[viewer.mode] })),
    } satisfies z.input<typeof DailyUsageBody>;
  });
}
