import type { FastifyInstance } from 'fastify';

/** The scheme every credential of the API uses (API keys, session tokens, the metrics token). */
export const BEARER_CHALLENGE = 'Bearer realm="api"';

/**
 * RFC 9110: a 401 names the scheme that would be accepted. Added to every 401, whoever sent it (the guard, a
 * GraphQL operation refused without a credential, the login route, /metrics), unless it set its own.
 */
export function registerAuthenticateChallenge(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', BEARER_CHALLENGE);
    }
    return payload;
  });
}
