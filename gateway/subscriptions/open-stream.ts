import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';
import { refusalOf } from '../access/operation-guard.ts';
import type { Execution, OperationRequest } from '../execution/execution.ts';
import { failedOutcome } from '../execution/outcome.ts';
import type { ExecutionOutcome } from '../execution/outcome.ts';
import type { ResultStream, StreamedResult } from '../execution/subscription.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import type { EndReason, StreamRegistry } from './stream-registry.ts';

export interface StreamDependencies {
  execution: Pick<Execution, 'subscribe'>;
  /** The viewer behind an Authorization header, or the 401/403 (auth/authenticate.ts, with the credential cache). */
  authenticate(authorization: string | undefined): Promise<Viewer>;
  meter: UsageMeter;
  registry: StreamRegistry;
}

export interface StreamRequest {
  operation: OperationRequest;
  /** The credential the stream was opened with, checked again on every event and on every credential change. */
  authorization: string | undefined;
  viewer: Viewer;
  context: RequestContext;
  /** Ends the channel's connection when the server ends the stream (shutdown: the client reconnects). */
  onServerEnd(reason: EndReason): void;
}

const errorResult = (error: unknown): StreamedResult => ({
  result: failedOutcome(error instanceof ApiError ? refusalOf(error) : error).result,
});

/**
 * A subscription as every channel opens it (SSE and WebSocket): admitted within the stream bounds, started
 * through the execution seam, then each event's result delivered only after the key is checked again and the
 * event is metered as one call (a sandbox key's credits run out mid-stream as they would over REST). A key that
 * stops holding, on an event or on a credential change anywhere (gateway/auth/credential-cache.ts's notice), ends the stream at
 * once with its error as the last result. (A client that falls behind is read from the log instead, in
 * subgraphs/markets/events/event-stream.ts; one that stops reading is cut off by its transport.)
 */
export async function openStream(
  deps: StreamDependencies,
  request: StreamRequest,
): Promise<{ refused: ExecutionOutcome } | { results: ResultStream }> {
  let cut: StreamedResult | undefined;
  /** The seam's results, once the subscription started (a recheck may come before). */
  const running: { results?: ResultStream } = {};
  let release = () => {};
  const end = (result: StreamedResult) => {
    cut ??= result;
    void running.results?.return();
  };
  const checkKey = async () => {
    try {
      await deps.authenticate(request.authorization);
    } catch (error) {
      end(errorResult(error));
    }
  };
  try {
    release = deps.registry.admit(request.viewer, { recheck: checkKey, end: request.onServerEnd });
  } catch (error) {
    return { refused: failedOutcome(refusalOf(error as ApiError)) };
  }
  const started = await deps.execution.subscribe(request.operation, request.context);
  if ('refused' in started) {
    release();
    return started;
  }
  const inner = (running.results = started.results);
  let finished = false;
  const finish = (): IteratorResult<StreamedResult> => {
    finished = true;
    release();
    return { done: true, value: undefined };
  };

  const results: ResultStream = {
    async next() {
      if (finished) return { done: true, value: undefined };
      let next: IteratorResult<StreamedResult>;
      try {
        next = await inner.next();
      } catch (error) {
        // The stream's own end: stream_overflow, or a read of the log that failed.
        next = { done: true, value: undefined };
        cut ??= errorResult(error);
      }
      if (!next.done && !cut) {
        try {
          const viewer = await deps.authenticate(request.authorization);
          await deps.meter.record(viewer);
          return next;
        } catch (error) {
          end(errorResult(error));
        }
      }
      if (cut) {
        const last = cut;
        cut = undefined;
        finished = true;
        release();
        return { done: false, value: last };
      }
      return finish();
    },
    async return() {
      await inner.return();
      return finish();
    },
    [Symbol.asyncIterator]() {
      return results;
    },
  };
  return { results };
}
