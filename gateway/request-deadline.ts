import type { FastifyInstance } from 'fastify';
import { errorBody } from '../subgraphs/platform/error-body.ts';
import { ServiceUnavailableError } from '../subgraphs/platform/errors.ts';

export const REQUEST_DEADLINE_MESSAGE = 'The request did not complete in time. Try again shortly.';

/**
 * Answers `503 service_unavailable` for a request still unanswered after `timeoutMs`, whatever it waits on.
 * The work behind it is not interrupted: each write is one statement or one transaction, so it either
 * commits or not, and the database's own timeouts end it soon after (docs/security.md "Timeouts and readiness").
 */
export function registerRequestDeadline(app: FastifyInstance, timeoutMs: number) {
  const timers = new WeakMap<object, NodeJS.Timeout>();
  app.addHook('onRequest', async (request, reply) => {
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent) return;
      request.log.warn({ timeoutMs, url: request.url }, 'request deadline exceeded');
      void reply.code(503).send(errorBody(new ServiceUnavailableError(REQUEST_DEADLINE_MESSAGE)));
    }, timeoutMs);
    timer.unref();
    timers.set(request, timer);
  });
  app.addHook('onResponse', async (request) => clearTimeout(timers.get(request)));
  // A request whose client went away never reaches onResponse.
  app.addHook('onRequestAbort', async (request) => clearTimeout(timers.get(request)));
}
