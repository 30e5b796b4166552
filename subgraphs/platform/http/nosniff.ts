import type { FastifyInstance } from 'fastify';

/**
 * `X-Content-Type-Options: nosniff` on every answer (JSON, pages, files, errors, 404s): a browser then never
 * reads a JSON body or an uploaded-looking text as a script or a page. `onSend`, so replies sent by error
 * handlers, the not-found handler and plugins get it too; a hijacked reply writes its own headers.
 */
export function registerNoSniff(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });
}
