import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { BOUND_TO_REQUEST } from '../logger.ts';
import { runInRequestScope } from '../request-scope.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A client's id is kept when it is short and plain (UUIDs, ULIDs, trace ids); anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `x-request-id` when sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Fastify options: request ids from requestIdOf, and request loggers (`reqId` bound) the shared logger's mixin leaves alone. */
export const requestIdOptions = {
  genReqId: requestIdOf,
  requestIdHeader: false,
  childLoggerFactory: (logger: FastifyBaseLogger, bindings, options) => {
    const child = logger.child(bindings, options);
    Object.defineProperty(child, BOUND_TO_REQUEST, { value: true });
    return child;
  },
} satisfies Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader' | 'childLoggerFactory'>;

/**
 * Every response carries its request's id, and whatever runs for the request (hooks, handlers, resolvers,
 * subgraphs in this process, the shared logger) can read it: the rest of the request runs inside the scope.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    runInRequestScope({ requestId: request.id }, done);
  });
}
