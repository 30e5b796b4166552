import FindMyWay from 'find-my-way';
import type { HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../subgraphs/platform/error-body.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';

/**
 * Answers requests no route takes: `405` with `Allow` when the path is a route's under another method (so a
 * client learns it used the wrong verb), `404` otherwise. The routes' patterns are recorded as they are
 * registered, in a router of their own, so a concrete path is matched exactly as Fastify matches it.
 * Call before any route is registered.
 */
export function registerNotFound(app: FastifyInstance): void {
  const patterns = FindMyWay();
  const methods = new Set<HTTPMethod>();
  app.addHook('onRoute', (route) => {
    // A catch-all (CORS preflight's `OPTIONS *`) would make every path known.
    if (route.url === '*') return;
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (!patterns.hasRoute(method, route.url)) patterns.on(method, route.url, () => undefined);
      methods.add(method);
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...methods].filter((method) => patterns.find(method, path)).sort();
    // A route that exists for this method and still calls notFound (an unknown asset name) is a plain 404.
    if (allowed.length === 0 || allowed.includes(request.method as HTTPMethod)) {
      return reply.status(404).send(errorBody(new ApiError('not_found', `No route ${request.method} ${path}.`)));
    }
    return reply
      .status(405)
      .header('allow', allowed.join(', '))
      .send(
        errorBody(
          new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`),
        ),
      );
  });
}
