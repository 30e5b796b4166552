import type { FastifyInstance } from 'fastify';
import { assertGranted } from './grants.ts';
import { parseRequestInput } from './request-input.ts';
import { UsageBody, usageBody } from '../limits/usage.ts';
import type { HandWrittenRoute } from '../openapi/hand-written-route.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';

/** The usage route as the OpenAPI document states it. */
export const USAGE_ROUTE: HandWrittenRoute = {
  method: 'GET',
  path: '/api/v1/usage',
  operationId: 'Usage',
  summary: "The caller's calls in the current period: the sandbox key's trial, or the account's live UTC day.",
  response: UsageBody,
};

/**
 * GET /api/v1/usage: the caller's usage in the current period, this call included. Live counts are written
 * first, so the answer and usage_counters agree and include what other processes have written.
 */
export function registerUsageRoute(app: FastifyInstance, meter: UsageMeter) {
  app.get('/api/v1/usage', async (request) => {
    assertGranted(request.viewer!, 'read_usage');
    parseRequestInput(request, {});
    await meter.flush();
    return usageBody(await meter.read(request.viewer!), request.viewer!);
  });
}
