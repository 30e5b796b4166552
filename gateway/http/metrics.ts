import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { errorBody } from '../../subgraphs/platform/error-body.ts';
import { UnauthorizedError } from '../../subgraphs/platform/errors.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { registerIngestMetrics } from './ingest-metrics.ts';

export interface MetricsOptions {
  /** The bearer token scrapers send; without one there is no /metrics route (404). */
  token: string | undefined;
  databases: Record<Mode, Database>;
  meter: UsageMeter;
}

/** Requests no route took are counted under one label, so unknown paths cannot grow the series without bound. */
const UNMATCHED = '(unmatched)';

function sameToken(header: string | undefined, token: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return typeof header === 'string' && timingSafeEqual(digest(header), digest(`Bearer ${token}`));
}

/**
 * Prometheus metrics at `GET /metrics`, behind their own bearer token (not an API credential): requests and
 * latency by route pattern and status, 429 refusals, database pools, the report queue, the usage meter's
 * unwritten counts and live ingestion's runs and staleness. Gauges are read when scraped. The route is public to the API guard, so scrapes are not
 * rate-limited or metered.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const { token, databases, meter } = options;
  if (!token) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 (plan rate limits, expensive-field limits, login throttling), by route pattern.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by database and state (total, idle, waiting clients); absent for PGlite.',
    labelNames: ['database', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const database of Object.values(databases)) {
        const counts = database.connections?.();
        if (!counts) continue;
        for (const [state, value] of Object.entries(counts)) this.set({ database: database.mode, state }, value);
      }
    },
  });
  new Gauge({
    name: 'report_queue_depth',
    help: 'Report jobs waiting for a worker (status queued), by database.',
    labelNames: ['database'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        Object.values(databases).map(async (database) => {
          try {
            const [row] = await database.sql.query<{ queued: number }>(
              "SELECT count(*)::int AS queued FROM report_jobs WHERE status = 'queued'",
            );
            this.set({ database: database.mode }, Number(row?.queued ?? 0));
          } catch (error) {
            // A database that is down leaves its series out; the scrape itself still answers.
            logger.warn({ err: error, database: database.mode }, 'metrics: report queue depth unavailable');
          }
        }),
      );
    },
  });
  new Gauge({
    name: 'usage_meter_unflushed_calls',
    help: 'Live calls counted in this process and not yet written to usage_counters.',
    registers: [registry],
    collect() {
      this.set(meter.backlog().calls);
    },
  });
  new Gauge({
    name: 'usage_meter_oldest_unflushed_seconds',
    help: 'Age of the oldest live call count not yet written (0 when none waits).',
    registers: [registry],
    collect() {
      const { oldestSince } = meter.backlog();
      this.set(oldestSince === undefined ? 0 : (Date.now() - oldestSince) / 1000);
    },
  });

  registerIngestMetrics(registry, databases.live);

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) refusals.inc({ route });
  });

  app.get('/metrics', { config: { public: true, operational: true } }, async (request, reply) => {
    if (!sameToken(request.headers.authorization, token)) {
      return reply.status(401).send(errorBody(new UnauthorizedError('The metrics token is required.')));
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
