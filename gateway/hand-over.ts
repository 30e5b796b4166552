import type { ExecutionResult } from 'graphql';
import type { RequestContext } from '../subgraphs/platform/context.ts';

/**
 * What the /graphql fast path (graphql-fast-path.ts) found before it left a request to Apollo Server: the
 * operation guard's refusal, an execution result with errors, or what the execution threw. Apollo Server reports
 * it, and nothing is checked, charged or run twice (the guard plugin and the direct executor read it).
 */
export type HandedOver =
  | { kind: 'refused'; error: unknown }
  | { kind: 'answered'; result: ExecutionResult }
  | { kind: 'failed'; error: unknown };

/**
 * The hand-over travels as a property of the request's context: Apollo Server gives plugins and the executor a
 * shallow copy of the context object, which keeps its properties but not its identity.
 */
const HANDED_OVER = Symbol('graphql fast path: handed over');
type WithHandOver = RequestContext & { [HANDED_OVER]?: HandedOver };

/** What the fast path left for Apollo Server to report about this request, if anything. */
export function handedOver(context: RequestContext | undefined): HandedOver | undefined {
  return (context as WithHandOver | undefined)?.[HANDED_OVER];
}

/** Leaves the fast path's finding for Apollo Server's pipeline to report. */
export function handOver(context: RequestContext, handed: HandedOver): void {
  (context as WithHandOver)[HANDED_OVER] = handed;
}
