import type { FastifyInstance } from 'fastify';
import type { Database, Mode } from '../subgraphs/platform/database.ts';
import { errorBody } from '../subgraphs/platform/error-body.ts';
import { ApiError } from '../subgraphs/platform/errors.ts';
import type { CounterStore } from './limits/store.ts';

export interface ReadinessDependencies {
  databases: Record<Mode, Database>;
  store: CounterStore;
  /** Subgraphs reached over HTTP: each is probed at its /healthz. */
  subgraphUrls?: Record<string, string>;
  /** How long each check may take; checks run side by side, so /readyz answers within about this. */
  timeoutMs: number;
}

/** Rejects when `work` takes longer than `ms` (the work itself is bounded by its own driver's timeouts). */
async function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function probeSubgraph(url: string, timeoutMs: number) {
  const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`health check answered ${response.status}`);
}

/**
 * GET /readyz: 200 when both databases, the counter store (Redis, when configured) and the subgraph services
 * (when reached by URL) answer; otherwise 503 naming what is down. Nothing is cached, so it turns ready
 * again as soon as the dependency is back.
 */
export function registerReadiness(app: FastifyInstance, deps: ReadinessDependencies) {
  // Built per request: the databases record may be swapped (a test points it at an unreachable server).
  const checksOf = (): [string, () => Promise<unknown>][] => [
    ...Object.entries(deps.databases).map(([mode, database]): [string, () => Promise<unknown>] => [
      `the ${mode} database`,
      () => database.sql.query('SELECT 1'),
    ]),
    ['the rate-limit store (Redis)', () => deps.store.ping()],
    ...Object.entries(deps.subgraphUrls ?? {}).map(([name, url]): [string, () => Promise<unknown>] => [
      `the ${name} subgraph`,
      () => probeSubgraph(url, deps.timeoutMs),
    ]),
  ];

  app.get('/readyz', { config: { public: true, operational: true } }, async (request, reply) => {
    const checks = checksOf();
    const results = await Promise.allSettled(checks.map(([, check]) => within(deps.timeoutMs, check)));
    const down = checks.filter((_, index) => results[index]!.status === 'rejected').map(([name]) => name);
    if (down.length === 0) return { status: 'ready' };
    request.log.warn({ down }, 'not ready');
    const code = down.some((name) => name.endsWith('database')) ? 'database_unavailable' : 'service_unavailable';
    return reply
      .status(503)
      .send(
        errorBody(new ApiError(code, `Not ready: ${down.join(', ')} ${down.length > 1 ? 'do' : 'does'} not answer.`)),
      );
  });
}
