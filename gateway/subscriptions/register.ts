import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { env } from '../../subgraphs/platform/config.ts';
import type { CredentialCache } from '../auth/credential-cache.ts';
import type { Execution } from '../execution/execution.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { registerSseRoute } from './sse-route.ts';
import { createStreamRegistry } from './stream-registry.ts';
import { attachWebSocketServer } from './ws-server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Subscriptions streaming from this process now (SSE and WebSocket). */
    streamCount(): number;
  }
}

export interface SubscriptionDependencies {
  execution: Execution;
  authenticate(authorization: string | undefined): Promise<Viewer>;
  credentials: CredentialCache;
  meter: UsageMeter;
  contextFor(request: FastifyRequest): RequestContext;
  contextOf(viewer: Viewer): RequestContext;
  allowedOrigins: readonly string[];
  /** Stream bounds (STREAMS_PER_KEY and STREAMS_PER_PROCESS unless given). */
  streams?: { perKey?: number; perProcess?: number };
}

/**
 * Subscriptions on the gateway's server (docs/events.md "Subscriptions"): GraphQL over SSE at /graphql/stream and
 * graphql-ws on /graphql, over one registry of open streams. A credential change anywhere makes every open stream
 * check its key at once; shutdown ends them all with a reconnect hint before the server stops taking connections.
 */
export function registerSubscriptions(app: FastifyInstance, deps: SubscriptionDependencies): void {
  const registry = createStreamRegistry({
    perKey: deps.streams?.perKey ?? env.STREAMS_PER_KEY,
    perProcess: deps.streams?.perProcess ?? env.STREAMS_PER_PROCESS,
  });
  app.decorate('streamCount', () => registry.size);
  const stopRechecks = deps.credentials.onForget(() => registry.recheckAll());
  app.addHook('preClose', async () => {
    stopRechecks();
    registry.endAll('shutdown');
  });
  const streamDependencies = { ...deps, registry };
  registerSseRoute(app, streamDependencies);
  attachWebSocketServer(app, { ...streamDependencies, schema: deps.execution.schema });
}
