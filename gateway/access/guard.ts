import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../subgraphs/platform/database.ts';
import { admit } from '../limits/limits.ts';
import type { Limits } from '../limits/limits.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { CredentialCache } from '../auth/credential-cache.ts';
import type { SessionStore } from '../auth/session-store.ts';

export interface GuardDependencies {
  control: Database;
  sessions: SessionStore;
  limits: Limits;
  meter: UsageMeter;
  /** Valid keys already checked (auth/credential-cache.ts). */
  credentials: CredentialCache;
}

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Every route not marked public passes here first, REST and GraphQL alike: the credential (401), the rate
 * limit (429) and the call count (403 when sandbox credits are spent). Returns the guard for routes that
 * decide late whether they need it (GET /graphql serves GraphiQL's page without a key).
 */
export function registerGuard(app: FastifyInstance, deps: GuardDependencies): Guard {
  app.decorateRequest('viewer', null);
  app.decorateRequest('usage', null);
  const guard: Guard = async (request, reply) => {
    request.viewer = await authenticate(deps.control, deps.sessions, request.headers.authorization, deps.credentials);
    await admit(deps.limits, deps.meter, request, reply);
  };
  app.addHook('onRequest', async (request, reply) => {
    const { config, url } = request.routeOptions;
    if (config.public || config.selfMetered || !url) return;
    await guard(request, reply);
  });
  return guard;
}
