import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { servedOpenApiDocument } from './document.ts';

/**
 * GET /openapi.json: the document, built once per process from the tables it serves (docs/api.md "OpenAPI").
 * Public like the documents it replaces; an ETag lets tools revalidate it for free.
 */
export function registerOpenApiRoute(app: FastifyInstance): void {
  let built: { body: string; etag: string } | undefined;
  app.get('/openapi.json', { config: { public: true } }, async (request, reply) => {
    built ??= (() => {
      const body = JSON.stringify(servedOpenApiDocument());
      return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
    })();
    reply.header('etag', built.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === built.etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(built.body);
  });
}
