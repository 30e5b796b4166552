import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext, Viewer } from '../subgraphs/platform/context.ts';
import type { Database, Mode } from '../subgraphs/platform/database.ts';
import { ApiError } from '../subgraphs/platform/errors.ts';
import { errorBody, unexpectedError } from '../subgraphs/platform/error-body.ts';
import { env } from '../subgraphs/platform/config.ts';
import { logger } from '../subgraphs/platform/logger.ts';
import { attachVerticalsHttp } from '../subgraphs/index.ts';
import type { VerticalsHttpOptions } from '../subgraphs/index.ts';
import { registerAccountRoutes } from './auth/account-routes.ts';
import { registerAccountDashboard } from './account/routes.ts';
import { registerGuard } from './access/guard.ts';
import type { LoginOptions } from './auth/login-route.ts';
import { createSessionStore } from './auth/session-store.ts';
import { createSessionTokens } from './auth/sessions.ts';
import { createCredentialCache } from './auth/credential-cache.ts';
import type { SessionTokens } from './auth/sessions.ts';
import { trustProxyOption } from './client-address.ts';
import type { TrustProxy } from './client-address.ts';
import { frameworkErrorOptions, requestReadingRefusal } from './framework-errors.ts';
import { registerReadiness } from './readiness.ts';
import { registerRequestDeadline } from './request-deadline.ts';
import { registerApiReference } from './api-reference/route.ts';
import { graphiqlPage, registerGraphiQLAssets, wantsGraphiQL } from './graphiql/route.ts';
import { createExecution } from './execution/execution.ts';
import type { ExecutionOptions } from './execution/execution.ts';
import { remoteSubgraphs } from './execution/apollo-server.ts';
import { graphqlRouteHandler } from './graphql/route.ts';
import { persistedQueryOptions } from './graphql/persisted-queries.ts';
import { registerRequestTextCheck } from './input/request-text-check.ts';
import { registerAnonymousLimits } from './access/anonymous-limit.ts';
import { createLimits } from './limits/limits.ts';
import type { Limits } from './limits/limits.ts';
import { graphqlHttpBounds } from './limits/graphql-http-bounds.ts';
import { operationGuard } from './access/operation-guard.ts';
import { QUERY_LIMITS } from './limits/policy.ts';
import { registerUsageRoute } from './auth/usage-route.ts';
import { createUsageMeter } from './limits/usage-meter.ts';
import { creditsLowPublisher } from './limits/credits-low.ts';
import { marketsRoutes } from './rest/markets-routes.ts';
import { webhookRoutes } from './rest/webhook-routes.ts';
import { registerRestRoutes } from './rest/register.ts';
import { registerOpenApiRoute } from './openapi/route.ts';
import { servedOpenApiDocument } from './openapi/document.ts';
import { authenticate } from './auth/authenticate.ts';
import { registerMcpRoute } from './mcp/route.ts';
import { registerSubscriptions } from './subscriptions/register.ts';
import type { SubscriptionDependencies } from './subscriptions/register.ts';
import { createToolbox } from './mcp/toolbox.ts';
import type { Toolbox } from './mcp/toolbox.ts';
import { forwardReportDownload, serveReportDownload } from './rest/report-download.ts';
import { registerCompression } from './http/compression.ts';
import { registerCors } from './http/cors.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerClosingRefusal } from './http/closing.ts';
import { registerNotFound } from './http/not-found.ts';
import { registerAuthenticateChallenge } from './http/authenticate-challenge.ts';
import { registerGraphQLErrorShape } from './http/graphql-errors.ts';
import { refuseForgeableRequest } from './access/csrf.ts';
import { registerRequestId, requestIdOptions } from '../subgraphs/platform/http/request-id.ts';
import { registerNoSniff } from '../subgraphs/platform/http/nosniff.ts';
import { verticalsRoutes } from './rest/verticals-routes.ts';
import { attachWebhookWorker } from '../subgraphs/platform/webhooks/worker.ts';
import type { WebhookWorkerOptions } from '../subgraphs/platform/webhooks/worker.ts';
import { attachIngestSchedule } from './ingest/attach-schedule.ts';
import type { IngestScheduleOptions } from './ingest/attach-schedule.ts';

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a credential (health checks, public statistics, GraphiQL's page). */
    public?: boolean;
    /**
     * Routes infrastructure polls (health checks, metrics), public and never counted: no anonymous limit, and
     * an Authorization header there is not an API credential (the metrics token travels in it).
     */
    operational?: boolean;
    /**
     * The account dashboard's API (gateway/account): public to the bearer guard and the anonymous limits, because
     * it authenticates by its session cookie and takes its own limits (per account, or per address signed out).
     */
    dashboard?: boolean;
    /**
     * MCP's route (gateway/mcp): it authenticates each request and admits and meters each tool call itself, so
     * neither the bearer guard nor the anonymous limits count its requests.
     */
    selfMetered?: boolean;
  }
}

export interface ServerOptions extends Omit<ExecutionOptions, 'guard' | 'persistedQueries'> {
  databases: Record<Mode, Database>;
  /** Rate-limit scheme, counter store and sandbox credits (from the environment unless given). */
  limits?: Limits;
  /** Session-token signing (from JWT_SECRETS unless given). */
  sessions?: SessionTokens;
  /** Where report files are written, with verticals in this process (DATA_DIR unless given). */
  dataDir?: string;
  /** Report worker tuning, with verticals in this process (poll interval, stale-heartbeat timeout, batch size). */
  reportWorker?: VerticalsHttpOptions['reportWorker'];
  /**
   * Webhook delivery: private destinations, poll interval and attempt timeout (WEBHOOK_* unless given), and the
   * rate per endpoint (production's unless given).
   */
  webhooks?: Partial<
    Pick<WebhookWorkerOptions, 'allowPrivate' | 'pollMs' | 'timeoutMs' | 'attemptsPerEndpointPerSecond'>
  >;
  /** Live ingestion's schedule (INGEST_SCHEDULE and INGEST_* unless given; gateway/ingest/attach-schedule.ts). */
  ingest?: IngestScheduleOptions;
  /** How often live usage counts are written to the control database (default 1,000 ms; see limits/usage-meter.ts). */
  usageFlushIntervalMs?: number;
  /** Login throttle and password-hashing bound (LOGIN_HASH_* and auth/login-throttle.ts defaults unless given). */
  login?: Partial<LoginOptions>;
  /** A request unanswered after this is a 503 (REQUEST_TIMEOUT_MS unless given). */
  requestTimeoutMs?: number;
  /** How long each /readyz check may take (READINESS_TIMEOUT_MS unless given). */
  readinessTimeoutMs?: number;
  /** Origins allowed cross-origin (CORS_ORIGINS unless given); the token of GET /metrics (METRICS_TOKEN unless given). */
  corsOrigins?: readonly string[];
  /** Host names /mcp answers under (MCP_ALLOWED_HOSTS unless given; gateway/mcp/host-check.ts). */
  mcpAllowedHosts?: readonly string[];
  metricsToken?: string;
  /** Fastify's `trustProxy`: whose X-Forwarded-For gives the client address (TRUST_PROXY unless given). */
  trustProxy?: TrustProxy;
  /** Every /graphql request answered by Apollo Server's HTTP handler (tests compare it with `execute`'s answers). */
  graphqlThroughApolloOnly?: boolean;
  /** Open streams allowed per API key and per process (STREAMS_PER_KEY and STREAMS_PER_PROCESS unless given). */
  streams?: SubscriptionDependencies['streams'];
  /** Whether anyone may create an account at /account (SIGNUP unless given). */
  signup?: 'open' | 'closed';
}

/**
 * The HTTP service: GraphQL at /graphql, the REST shims, health checks. Authentication runs once here, in a
 * hook, for REST and GraphQL alike; the database a request reads follows the viewer's mode.
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const { databases } = options;
  const control = databases.live;
  const limits = options.limits ?? createLimits();
  const sessions = createSessionStore(
    control,
    options.sessions ?? createSessionTokens({ secrets: env.JWT_SECRETS, ttlSeconds: env.JWT_TTL_SECONDS }),
    'api',
  );
  const execution = await createExecution({
    ...options,
    guard: operationGuard(limits.checkFieldLimits),
    // Shared by every gateway through Redis when the limits use it (REDIS_URL).
    persistedQueries: persistedQueryOptions(limits.store, Boolean(limits.options.redisUrl)),
  });
  const { schema } = execution;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    ...frameworkErrorOptions,
    ...requestIdOptions,
    trustProxy: trustProxyOption(options.trustProxy ?? env.TRUST_PROXY),
    return503OnClosing: false,
  });
  // Request ids, nosniff, 404/405, compression and CORS (gateway/http/) come before every other hook and route.
  registerRequestId(app);
  registerNoSniff(app);
  registerClosingRefusal(app);
  registerNotFound(app);
  registerAuthenticateChallenge(app);
  registerGraphQLErrorShape(app);
  await registerCompression(app);
  await registerCors(app, options.corsOrigins ?? env.CORS_ORIGINS);

  const allowPrivateWebhooks = options.webhooks?.allowPrivate ?? env.WEBHOOK_ALLOW_PRIVATE;
  const contextOf = (viewer: Viewer | null): RequestContext => ({
    viewer,
    // Public routes (no viewer) read the live database: public statistics describe the real records.
    db: databases[viewer?.mode ?? 'live'],
    loaders: new Map(),
    allowPrivateWebhooks,
  });
  const contextFor = (request: FastifyRequest): RequestContext => contextOf(request.viewer);

  // Registered before the guard, so the deadline covers authentication and limits too.
  registerRequestDeadline(app, options.requestTimeoutMs ?? env.REQUEST_TIMEOUT_MS);
  // Credentials, rate limits and metering for every non-public route (gateway/access, over auth/ and limits/).
  const meter = createUsageMeter(control, {
    sandboxCredits: limits.options.sandboxCredits,
    flushIntervalMs: options.usageFlushIntervalMs,
    onCreditsLow: creditsLowPublisher(control, databases.sandbox),
  });
  const credentials = createCredentialCache(control);
  app.decorate('credentialCache', credentials);
  app.addHook('onClose', () => credentials.close());
  // The viewer behind an Authorization header, for the channels that authenticate themselves (MCP, streams).
  const authenticateHeader = (authorization: string | undefined) =>
    authenticate(control, sessions, authorization, credentials);
  const guard = registerGuard(app, { control, sessions, limits, meter, credentials });
  registerRequestTextCheck(app);
  registerAnonymousLimits(app, { limits, guard });
  const passwords = registerAccountRoutes(app, { control, sessions, limits, meter, login: options.login });
  registerUsageRoute(app, meter, control);
  app.decorate('usageMeter', meter);
  registerMetrics(app, { token: options.metricsToken ?? env.METRICS_TOKEN, databases, meter });
  // Live usage counted in memory is written before the server (and then its databases) closes.
  app.addHook('onClose', () => meter.close());

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));

  app.get('/healthz', { config: { public: true, operational: true } }, async () => ({ status: 'ok' }));
  registerReadiness(app, {
    databases,
    store: limits.store,
    subgraphUrls: options.subgraphUrls,
    timeoutMs: options.readinessTimeoutMs ?? env.READINESS_TIMEOUT_MS,
  });

  // /graphql and the REST shims are two channels over the one execution seam (gateway/execution).
  const graphqlHandler = graphqlRouteHandler(execution, contextFor, { apolloOnly: options.graphqlThroughApolloOnly });
  // Size, batching and the operation's bounds are checked before Apollo Server parses and validates (limits/).
  const boundGraphQLRequest = graphqlHttpBounds(schema);
  // Public: without a credential an operation may ask for the public fields only (access/operation-guard.ts).
  app.post(
    '/graphql',
    {
      bodyLimit: QUERY_LIMITS.maxBodyBytes,
      config: { public: true },
      preHandler: [refuseForgeableRequest, boundGraphQLRequest],
    },
    graphqlHandler,
  );
  app.get('/graphql', {
    config: { public: true },
    preHandler: async (request, reply) => {
      if (wantsGraphiQL(request)) return reply.type('text/html').send(graphiqlPage());
      await refuseForgeableRequest(request);
      if (request.headers.authorization !== undefined) await guard(request, reply);
      return boundGraphQLRequest(request, reply);
    },
    handler: graphqlHandler,
  });
  registerApiReference(app);
  registerGraphiQLAssets(app);
  await registerAccountDashboard(app, { control, limits, meter, passwords, signup: options.signup });

  const restDependencies = { execution, contextFor };
  registerRestRoutes(app, verticalsRoutes, restDependencies);
  registerRestRoutes(app, marketsRoutes, restDependencies);
  registerRestRoutes(app, webhookRoutes, restDependencies);
  registerOpenApiRoute(app);
  // MCP over the same routes and execution: each tool call is one metered call (gateway/mcp). Its tools are built
  // on the first /mcp request, so a server that never serves one pays nothing for them at start.
  let toolbox: Toolbox | undefined;
  registerMcpRoute(app, {
    toolbox: () => (toolbox ??= createToolbox({ execution, limits, meter, document: servedOpenApiDocument() })),
    resources: { schema, openApi: servedOpenApiDocument },
    authenticate: authenticateHeader,
    contextFor,
    limits,
    hostRules: {
      hosts: options.mcpAllowedHosts ?? env.MCP_ALLOWED_HOSTS,
      origins: options.corsOrigins ?? env.CORS_ORIGINS,
    },
  });
  // Subscriptions over SSE and WebSocket, through the same seam, keys and meter (gateway/subscriptions).
  registerSubscriptions(app, {
    execution,
    authenticate: authenticateHeader,
    credentials,
    meter,
    contextFor,
    contextOf,
    allowedOrigins: options.corsOrigins ?? env.CORS_ORIGINS,
    streams: options.streams,
  });
  // Verticals' report worker and download run where verticals runs: here in one process, else in its service.
  const remote = remoteSubgraphs(options);
  if (remote) {
    const timeoutMs = options.subgraphTimeoutMs ?? env.SUBGRAPH_TIMEOUT_MS;
    forwardReportDownload(app, { subgraphUrl: remote.urls.verticals, secret: remote.secret, timeoutMs });
  } else {
    const dataDir = options.dataDir ?? env.dataDir;
    attachVerticalsHttp(app, {
      databases,
      dataDir,
      contextFor,
      reportWorker: options.reportWorker,
      serveDownload: serveReportDownload(app),
    });
  }

  // Every gateway process sends due webhooks, whatever the deployment: leases keep one attempt per delivery.
  attachWebhookWorker(app, {
    databases,
    allowPrivate: allowPrivateWebhooks,
    pollMs: options.webhooks?.pollMs ?? env.WEBHOOK_POLL_MS,
    timeoutMs: options.webhooks?.timeoutMs ?? env.WEBHOOK_TIMEOUT_MS,
    attemptsPerEndpointPerSecond: options.webhooks?.attemptsPerEndpointPerSecond,
  });

  // Every gateway runs the schedule when it is on: leases run each source once across them.
  attachIngestSchedule(app, databases.live, options.ingest);

  app.addHook('onClose', async () => {
    await execution.apollo.stop();
    if (!options.limits) await limits.close();
  });
  return app;
}

function sendError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  // A 401 gets its WWW-Authenticate header in http/authenticate-challenge.ts.
  if (error instanceof ApiError) return reply.status(error.status).send(errorBody(error));
  // Fastify's own 4xx (a body that is not JSON, too large, of another type), in our words; a too large body is
  // measured against its route's limit (/graphql's and /mcp's are their own), not the server's.
  const refused = requestReadingRefusal(error, request.routeOptions.bodyLimit);
  if (refused) return reply.status(refused.status).send(refused.body);
  request.log.error({ err: error }, 'unhandled error');
  const unexpected = unexpectedError(error);
  return reply.status(unexpected.status).send(errorBody(unexpected));
}
