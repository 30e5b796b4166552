import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext, Viewer } from '../subgraphs/shared/context.ts';
import type { Database, Mode } from '../subgraphs/shared/database.ts';
import { ApiError } from '../subgraphs/shared/errors.ts';
import type { ErrorBody } from '../subgraphs/shared/errors.ts';
import { env } from '../subgraphs/shared/config.ts';
import { logger } from '../subgraphs/shared/logger.ts';
import { attachReportWorker } from '../subgraphs/verticals/reports/worker.ts';
import type { ReportWorkerOptions } from '../subgraphs/verticals/reports/worker.ts';
import { SUBGRAPHS } from '../subgraphs/index.ts';
import { registerAccountRoutes } from './auth/account-routes.ts';
import { registerGuard } from './auth/guard.ts';
import { createSessionTokens } from './auth/sessions.ts';
import type { SessionTokens } from './auth/sessions.ts';
import { trustProxyOption } from './client-address.ts';
import type { TrustProxy } from './client-address.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './database-unavailable.ts';
import { graphiqlPage, registerGraphiQLAssets, wantsGraphiQL } from './graphiql/route.ts';
import { createGraphQLServer } from './graphql-server.ts';
import { registerAnonymousLimits } from './limits/anonymous-limit.ts';
import { createLimits } from './limits/limits.ts';
import type { Limits } from './limits/limits.ts';
import { operationGuardPlugin } from './limits/operation-plugin.ts';
import { registerUsageRoute } from './limits/usage-route.ts';
import { createUsageMeter } from './limits/usage-meter.ts';
import type { GraphQLServerOptions } from './graphql-server.ts';
import { marketsRoutes } from './rest/markets-routes.ts';
import { registerRestRoutes } from './rest/register.ts';
import { registerReportDownload } from './rest/report-download.ts';
import { verticalsRoutes } from './rest/verticals-routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a credential (health checks, public statistics, GraphiQL's page). */
    public?: boolean;
  }
}

export interface ServerOptions extends GraphQLServerOptions {
  databases: Record<Mode, Database>;
  /** Rate-limit scheme, counter store and sandbox credits (from the environment unless given). */
  limits?: Limits;
  /** Session-token signing (from JWT_SECRETS unless given). */
  sessions?: SessionTokens;
  /** Where report files are written (DATA_DIR unless given). */
  dataDir?: string;
  /** Report worker tuning (poll interval, stale-heartbeat timeout, batch size). */
  reportWorker?: Omit<ReportWorkerOptions, 'databases' | 'dataDir'>;
  /** How often live usage counts are written to the control database (default 1,000 ms; see limits/usage-meter.ts). */
  usageFlushIntervalMs?: number;
  /** Fastify's `trustProxy`: whose X-Forwarded-For gives the client address (TRUST_PROXY unless given). */
  trustProxy?: TrustProxy;
}

/**
 * The HTTP service: GraphQL at /graphql, the REST shims, health checks. Authentication runs once here, in a
 * hook, for REST and GraphQL alike; the database a request reads follows the viewer's mode.
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const { databases } = options;
  const control = databases.live;
  const limits = options.limits ?? createLimits();
  const sessions = options.sessions ?? createSessionTokens({ secrets: env.JWT_SECRETS, ttlSeconds: env.JWT_TTL_SECONDS });
  const { server: graphql, schema, inFlight } = await createGraphQLServer({
    ...options,
    plugins: [operationGuardPlugin(limits.checkFieldLimits)],
  });
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, trustProxy: trustProxyOption(options.trustProxy ?? env.TRUST_PROXY) });

  const contextFor = (request: FastifyRequest): RequestContext => ({
    viewer: request.viewer,
    // Public routes (no viewer) read the live database: public statistics describe the real records.
    db: databases[request.viewer?.mode ?? 'live'],
    loaders: new Map(),
  });

  // Credentials, rate limits and metering for every non-public route (gateway/auth, gateway/limits).
  const meter = createUsageMeter(control, { sandboxCredits: limits.options.sandboxCredits, flushIntervalMs: options.usageFlushIntervalMs });
  const guard = registerGuard(app, { control, sessions, limits, meter });
  registerAnonymousLimits(app, { limits, guard });
  registerAccountRoutes(app, { control, sessions, limits, meter });
  registerUsageRoute(app, meter);
  app.decorate('usageMeter', meter);
  // Live usage counted in memory is written before the server (and then its databases) closes.
  app.addHook('onClose', () => meter.close());

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` }),
  );

  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true } }, async (_request, reply) => {
    try {
      await Promise.all(Object.values(databases).map((database) => database.sql.query('SELECT 1')));
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ error: 'database_unavailable', message: DATABASE_UNAVAILABLE_MESSAGE });
    }
  });

  const apolloHandler = fastifyApolloHandler(graphql, { context: async (request) => contextFor(request) });
  app.post('/graphql', apolloHandler);
  app.get('/graphql', {
    config: { public: true },
    preHandler: async (request, reply) => {
      if (wantsGraphiQL(request)) return reply.type('text/html').send(graphiqlPage());
      await guard(request, reply);
    },
    handler: apolloHandler,
  });
  registerGraphiQLAssets(app);

  // With the subgraphs in this process, REST queries that verticals answers whole skip the gateway (rest/direct.ts).
  // Verticals resolves every field of its schema itself; markets' Company fields need verticals' ticker.
  const direct = options.subgraphUrls
    ? undefined
    : { subgraphs: [{ name: 'verticals', schema: SUBGRAPHS.verticals }], apiSchema: schema, checkFieldLimits: limits.checkFieldLimits, inFlight };
  const restDependencies = { graphql, schema, contextFor, direct };
  registerRestRoutes(app, verticalsRoutes, restDependencies);
  registerRestRoutes(app, marketsRoutes, restDependencies);
  const dataDir = options.dataDir ?? env.dataDir;
  registerReportDownload(app, { contextFor, dataDir });
  attachReportWorker(app, { ...options.reportWorker, databases, dataDir });

  app.addHook('onClose', async () => {
    await graphql.stop();
    if (!options.limits) await limits.close();
  });
  return app;
}

function sendError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    const body: ErrorBody = { error: error.code, message: error.message };
    if (error.details) body.details = error.details;
    if (error.redirect) body.redirect = error.redirect;
    return reply.status(error.status).send(body);
  }
  // Fastify's own 4xx: a body that is not JSON, an unsupported content type, a body too large.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply
      .status(error.statusCode === 413 || error.statusCode === 415 ? error.statusCode : 400)
      .send({ error: 'invalid_parameter', message: error.message, details: { body: error.message } });
  }
  request.log.error({ err: error }, 'unhandled error');
  if (isDatabaseUnavailable(error)) {
    return reply.status(503).send({ error: 'database_unavailable', message: DATABASE_UNAVAILABLE_MESSAGE });
  }
  return reply.status(500).send({ error: 'internal_error', message: 'An internal error occurred.' });
}
