import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Headers a browser script may read from our responses (rate limits, usage, the request id). */
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Usage-Calls',
  'X-Usage-Allowance',
  'X-Usage-Remaining',
  'X-Usage-Overage',
  'X-Request-Id',
];

/**
 * Cross-origin access for the listed origins only (exact `scheme://host[:port]`); without any, no CORS headers
 * at all, so browsers keep other sites' scripts out. A request from an origin not listed gets no CORS header
 * either, and its preflight is answered like any OPTIONS request (405). Call before the guard's hook: an
 * allowed preflight is answered before authentication, as browsers send it without the Authorization header.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  // The plugin's catch-all preflight route needs no credential; only a refused preflight reaches it.
  app.addHook('onRoute', (route) => {
    if (route.url === '*' && route.method === 'OPTIONS') route.config = { ...route.config, public: true };
  });
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    // MCP clients in a browser send the protocol's own headers (gateway/mcp).
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Mcp-Protocol-Version', 'Mcp-Session-Id'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
