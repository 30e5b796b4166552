import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext, Viewer } from '../subgraphs/shared/context.ts';
import type { Database, Mode } from '../subgraphs/shared/database.ts';
import { ApiError } from '../subgraphs/shared/errors.ts';
import type { ErrorBody } from '../subgraphs/shared/errors.ts';
import { logger } from '../subgraphs/shared/logger.ts';
import { authenticate } from './auth/authenticate.ts';
import { graphiqlPage, registerGraphiQLAssets, wantsGraphiQL } from './graphiql/route.ts';
import { createGraphQLServer } from './graphql-server.ts';
import type { GraphQLServerOptions } from './graphql-server.ts';
import { marketsRoutes } from './rest/markets-routes.ts';
import { registerRestRoutes } from './rest/register.ts';
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
}

/**
 * The HTTP service: GraphQL at /graphql, the REST shims, health checks. Authentication runs once here, in a
 * hook, for REST and GraphQL alike; the database a request reads follows the viewer's mode.
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const { databases } = options;
  const control = databases.live;
  const { server: graphql, schema } = await createGraphQLServer(options);
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  app.decorateRequest('viewer', null);

  const contextFor = (request: FastifyRequest): RequestContext => ({
    viewer: request.viewer,
    // Public routes (no viewer) read the live database: public statistics describe the real records.
    db: databases[request.viewer?.mode ?? 'live'],
    loaders: new Map(),
  });

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public || !request.routeOptions.url) return;
    request.viewer = await authenticate(control, request.headers.authorization);
  });

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
      return reply.status(503).send({ error: 'database_unavailable', message: 'The database is not reachable.' });
    }
  });

  const apolloHandler = fastifyApolloHandler(graphql, { context: async (request) => contextFor(request) });
  app.post('/graphql', apolloHandler);
  app.get('/graphql', {
    config: { public: true },
    preHandler: async (request, reply) => {
      if (wantsGraphiQL(request)) return reply.type('text/html').send(graphiqlPage());
      request.viewer = await authenticate(control, request.headers.authorization);
    },
    handler: apolloHandler,
  });
  registerGraphiQLAssets(app);

  const restDependencies = { graphql, schema, contextFor };
  registerRestRoutes(app, verticalsRoutes, restDependencies);
  registerRestRoutes(app, marketsRoutes, restDependencies);

  app.addHook('onClose', async () => {
    await graphql.stop();
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
  return reply.status(500).send({ error: 'internal_error', message: 'An internal error occurred.' });
}
