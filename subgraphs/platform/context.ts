import type { Database, Mode } from './database.ts';
import { UnauthorizedError } from './errors.ts';
import type { Plan } from './plans.ts';

export type { Plan } from './plans.ts';

/** Who is calling. Set by the gateway from a verified credential; subgraphs never read it from a client. */
export interface Viewer {
  accountId: string;
  plan: Plan;
  mode: Mode;
  keyId?: string;
}

/**
 * The context every resolver sees. In one process the gateway hands the same object to both subgraphs
 * (gateway/execution/local-data-source.ts, and whole-subgraph.ts), so per-request caches are keyed by subgraph in `loaders`.
 */
export interface RequestContext {
  viewer: Viewer | null;
  /** The database of the viewer's mode: sandbox keys never touch live data. */
  db: Database;
  loaders: Map<string, unknown>;
  /** Webhook destinations may be plain http and private addresses (WEBHOOK_ALLOW_PRIVATE unless the host says). */
  allowPrivateWebhooks?: boolean;
  /**
   * A subscription's stream reconnecting: the cursor of the last event it received (SSE `Last-Event-ID`). It
   * takes the place of the operation's `since`, so the stream resumes after that event.
   */
  resumeAfter?: string;
}

/** A per-request, per-key memo: each subgraph's DataLoaders are created once per request. */
export function loaderFor<T>(context: RequestContext, key: string, create: () => T): T {
  let loader = context.loaders.get(key) as T | undefined;
  if (!loader) {
    loader = create();
    context.loaders.set(key, loader);
  }
  return loader;
}

/** The caller's account: what a caller keeps (leads, watchlists, webhook endpoints) belongs to it; none is a 401. */
export function accountOf(context: RequestContext): string {
  if (!context.viewer) throw new UnauthorizedError();
  return context.viewer.accountId;
}
