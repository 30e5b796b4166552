import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { logger } from '../../subgraphs/platform/logger.ts';

/** The PostgreSQL channel the credentials migration's triggers notify (prisma/migrations/*_credential_changes). */
export const CREDENTIALS_CHANGED = 'credentials_changed';

/** Valid API keys remembered at most this long, whatever the notices say (a bound if one were ever lost). */
const ENTRY_TTL_MS = 60_000;
/** Keys remembered at most; past it the oldest is forgotten (its next call looks it up again). */
const MAX_ENTRIES = 20_000;
/** How long a lost listening connection waits before listening again. */
const RELISTEN_MS = 1_000;

/**
 * Valid API keys this process has looked up (by their SHA-256, never the key), so an account's next calls skip
 * the key lookup: at 1,500 accounts a request it was one of the four statements a REST call sent.
 *
 * Only valid keys are kept: an unknown, revoked or malformed key is looked up every time, so every 401 still
 * costs the same single lookup. A change that could refuse a kept key (a revocation, a plan change, a disabled
 * account, a deleted key or account, by any process or by hand) fires the credentials migrations' trigger,
 * whose notice makes every gateway forget every kept key; the process that revokes a key also forgets them
 * before it answers. The cache is used only while this process is listening: before its LISTEN succeeds, and
 * from the moment that connection fails until it listens again, every call is looked up as before.
 */
export interface CredentialCache {
  get(hash: string): Viewer | undefined;
  /** Taken before a lookup: `set` keeps its answer only if nothing was forgotten meanwhile (it may be stale). */
  ticket(): number;
  set(hash: string, viewer: Viewer, ticket: number): void;
  /** Forgets every kept key (a notice, or a revocation by this process). */
  clear(): void;
  /** Calls `listener` whenever kept keys are forgotten: open streams check their keys again (gateway/subscriptions). */
  onForget(listener: () => void): () => void;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Keys this gateway has checked (auth/credential-cache.ts); revocations clear it. */
    credentialCache: CredentialCache;
  }
}

export function createCredentialCache(control: Database): CredentialCache {
  const entries = new Map<string, { viewer: Viewer; until: number }>();
  /** Counts forgettings, so a lookup that overlapped one does not keep what it read before the change. */
  let generation = 0;
  let listening = false;
  let closed = false;
  let stop: (() => Promise<void>) | undefined;
  let retry: NodeJS.Timeout | undefined;

  const forgetListeners = new Set<() => void>();
  const forgetAll = () => {
    generation += 1;
    entries.clear();
    for (const listener of forgetListeners) listener();
  };
  const onLost = (error: unknown) => {
    listening = false;
    forgetAll();
    logger.warn({ err: error }, 'credential notices lost; looking up every key until listening again');
    if (!closed) retry = setTimeout(() => void listen(), RELISTEN_MS);
  };
  async function listen() {
    try {
      stop = await control.listen(CREDENTIALS_CHANGED, forgetAll, onLost);
      // Anything changed before LISTEN took effect was never kept: the cache is empty until now.
      forgetAll();
      listening = !closed;
    } catch (error) {
      onLost(error);
    }
  }
  const started = listen();

  return {
    get(hash) {
      if (!listening) return undefined;
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (entry.until < Date.now()) {
        entries.delete(hash);
        return undefined;
      }
      return entry.viewer;
    },
    ticket: () => generation,
    set(hash, viewer, ticket) {
      if (!listening || ticket !== generation) return;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      // Frozen: every request of the key shares this object.
      entries.set(hash, { viewer: Object.freeze(viewer), until: Date.now() + ENTRY_TTL_MS });
    },
    clear: forgetAll,
    onForget(listener) {
      forgetListeners.add(listener);
      return () => forgetListeners.delete(listener);
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      await started;
      await stop?.();
      forgetAll();
    },
  };
}
