import type { FastifyInstance } from 'fastify';
import { usageBody } from './usage.ts';

/** GET /api/v1/usage: the caller's usage in the current period, this call included. */
export function registerUsageRoute(app: FastifyInstance) {
  app.get('/api/v1/usage', async (request) => usageBody(request.usage!, request.viewer!));
}
