import { timingSafeEqual, createHash } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { SUBGRAPH_SECRET_HEADER, VIEWER_HEADER } from './http/subgraph-protocol.ts';
import type { RequestContext, Viewer } from './context.ts';
import type { Database, Mode } from './database.ts';
import { errorBody, errorBodyOf, formatGraphQLError } from './error-body.ts';
import { BadRequestError, UnauthorizedError } from './errors.ts';
import { registerNoSniff } from './http/nosniff.ts';
import { registerRequestId, requestIdOptions } from './http/request-id.ts';
import { logger } from './logger.ts';
import { PLANS } from './plans.ts';

const ViewerHeader = z.object({
  accountId: z.uuid(),
  plan: z.enum(PLANS),
  mode: z.enum(['live', 'sandbox']),
  keyId: z.uuid().optional(),
});

export interface SubgraphServerOptions {
  name: string;
  schema: GraphQLSchema;
  databases: Record<Mode, Database>;
  /** The gateway's shared secret; requests without it are refused. */
  secret: string;
  /** Adds the subgraph's routes besides /graphql (behind the same secret), given each request's context. */
  attach?: (app: FastifyInstance, contextFor: (request: FastifyRequest) => RequestContext) => void;
}

/** Compares digests, so the comparison takes the same time whatever the header holds. */
function sameSecret(given: string | string[] | undefined, secret: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}

/**
 * One subgraph as its own HTTP service (POST /graphql). It answers only the gateway: the shared secret is
 * checked on every request, and the viewer (account, plan, mode) is the one the gateway verified and sent
 * next to the secret, never a client's claim.
 */
export async function createSubgraphServer(options: SubgraphServerOptions): Promise<FastifyInstance> {
  const { databases, secret } = options;
  const apollo = new ApolloServer<RequestContext>({
    schema: options.schema,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError,
    introspection: false,
    // Apollo's own SIGTERM handler re-raises the signal and kills the process before our shutdown (subgraphs/platform/process/shutdown.ts) flushes usage.
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  // The gateway sends its request's id, so both services' log lines of one client request share it.
  const app = Fastify({
    loggerInstance: logger.child({ subgraph: options.name }) as FastifyBaseLogger,
    ...requestIdOptions,
  });
  registerRequestId(app);
  registerNoSniff(app);
  const viewers = new WeakMap<object, Viewer | null>();

  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/healthz') return;
    if (!sameSecret(request.headers[SUBGRAPH_SECRET_HEADER], secret)) {
      return reply.status(401).send(errorBody(new UnauthorizedError('This subgraph answers only its gateway.')));
    }
    const header = request.headers[VIEWER_HEADER];
    let viewer: Viewer | null = null;
    if (typeof header === 'string') {
      const parsed = ViewerHeader.safeParse(
        (() => {
          try {
            return JSON.parse(header);
          } catch {
            return undefined;
          }
        })(),
      );
      if (!parsed.success) {
        return reply
          .status(400)
          .send(
            errorBody(new BadRequestError({ [VIEWER_HEADER]: 'is not a viewer' }, 'The viewer header is malformed.')),
          );
      }
      viewer = parsed.data;
    }
    viewers.set(request, viewer);
  });

  const contextFor = (request: FastifyRequest): RequestContext => {
    const viewer = viewers.get(request) ?? null;
    return { viewer, db: databases[viewer?.mode ?? 'live'], loaders: new Map() };
  };
  // Attached routes answer errors with the API's body, as the gateway would; Fastify's own 4xx stay as they are.
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (!(error instanceof GraphQLError) && error.statusCode !== undefined && error.statusCode < 500) throw error;
    const formatted = formatGraphQLError(
      error instanceof GraphQLError ? error.toJSON() : { message: error.message },
      error,
    );
    const { status, body } = errorBodyOf(formatted);
    return reply.status(status).send(body);
  });

  app.get('/healthz', async () => ({ status: 'ok', subgraph: options.name }));
  app.post('/graphql', fastifyApolloHandler(apollo, { context: async (request) => contextFor(request) }));
  options.attach?.(app, contextFor);
  app.addHook('onClose', async () => {
    await apollo.stop();
  });
  return app;
}
