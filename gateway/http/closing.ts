import type { FastifyInstance } from 'fastify';
import { ServiceUnavailableError } from '../../subgraphs/platform/errors.ts';

/**
 * Requests that arrive on a kept-alive connection while the server shuts down: our 503 body (and a closed
 * connection, so the client's next request goes to another instance), instead of Fastify's own closing reply.
 * Use with `return503OnClosing: false`.
 */
export function registerClosingRefusal(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new ServiceUnavailableError('The server is shutting down; retry the request.');
  });
}
