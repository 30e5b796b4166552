import type { Viewer } from '../../subgraphs/platform/context.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';

/** Why the server ends a stream: what each channel tells its client. */
export type EndReason = 'shutdown';

/** An open stream, as the registry sees it. */
export interface RegisteredStream {
  /** Checks the stream's credential again; a stream whose key no longer holds ends itself. */
  recheck(): Promise<void>;
  /** Ends the stream for `reason` (the channel tells its client to reconnect). */
  end(reason: EndReason): void;
}

export interface StreamRegistry {
  /** Counts a new stream of `viewer`'s key; a 429 past either bound. Returns its release. */
  admit(viewer: Viewer, stream: RegisteredStream): () => void;
  /** Every open stream checks its key again (a credential changed somewhere: auth/credential-cache.ts). */
  recheckAll(): void;
  /** Ends every open stream (graceful shutdown). */
  endAll(reason: EndReason): void;
  readonly size: number;
}

/**
 * The streams open in this process (SSE and WebSocket subscriptions alike), bounded per API key and per process
 * (STREAMS_PER_KEY, STREAMS_PER_PROCESS): a stream holds a connection, a tail listener and a buffer, so the number
 * of them is bounded before one opens, like every other request's work.
 */
export function createStreamRegistry(bounds: { perKey: number; perProcess: number }): StreamRegistry {
  const streams = new Map<RegisteredStream, string>();
  const perKey = new Map<string, number>();

  return {
    admit(viewer, stream) {
      const key = viewer.keyId ?? `account:${viewer.accountId}`;
      const open = perKey.get(key) ?? 0;
      if (open >= bounds.perKey) {
        throw new ApiError(
          'rate_limited',
          `This key has ${open} streams open, the most it may (STREAMS_PER_KEY): close one, or subscribe to several events in one stream.`,
        );
      }
      if (streams.size >= bounds.perProcess) {
        throw new ApiError('rate_limited', 'This server has as many streams open as it takes; try again shortly.');
      }
      streams.set(stream, key);
      perKey.set(key, open + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        streams.delete(stream);
        const left = (perKey.get(key) ?? 1) - 1;
        if (left > 0) perKey.set(key, left);
        else perKey.delete(key);
      };
    },
    recheckAll() {
      for (const stream of streams.keys()) void stream.recheck();
    },
    endAll(reason) {
      for (const stream of [...streams.keys()]) stream.end(reason);
    },
    get size() {
      return streams.size;
    },
  };
}
