import type { FastifyInstance } from 'fastify';
import { assertGranted } from './grants.ts';
import { parseRequestInput } from './request-input.ts';
import { usageBody } from '../limits/usage.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';

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
