import {
  GraphQLError,
  OperationTypeNode,
  createSourceEventStream,
  execute,
  getVariableValues,
  validate,
} from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { BadRequestError, STATUS_BY_CODE } from '../../subgraphs/platform/errors.ts';
import type { OperationGuard } from '../access/operation-guard.ts';
import { parsedDocument } from '../limits/measured-operations.ts';
import { resolveOperation } from '../limits/operation-bounds.ts';
import { answeredOutcome, failedOutcome } from './outcome.ts';
import type { ExecutionOutcome } from './outcome.ts';
import type { OperationRequest } from './execution.ts';
import { wholeSubgraphOf } from './whole-subgraph.ts';
import type { InProcessSubgraph } from './whole-subgraph.ts';

/** One event of a subscription, executed: the response for it and the cursor of the event behind it. */
export interface StreamedResult {
  result: ExecutionOutcome['result'];
  cursor?: string;
}

/** A subscription refused before it streamed (the outcome says why), or its stream of results. */
export type SubscriptionOutcome = { refused: ExecutionOutcome } | { results: ResultStream };

/** The results, one per event; `return()` ends the stream (the client left, the key was revoked). */
export interface ResultStream extends AsyncIterableIterator<StreamedResult> {
  return(): Promise<IteratorResult<StreamedResult>>;
}

const STREAMS =
  'Subscriptions stream from /graphql/stream (GraphQL over SSE) and from /graphql over WebSocket (graphql-ws).';
export const NOT_A_SUBSCRIPTION = `This is not a subscription: send queries and mutations to POST /graphql. ${STREAMS}`;
export const SUBSCRIPTION_NEEDS_STREAM = `A subscription needs a stream. ${STREAMS}`;

/** Errors of the client's document or variables, with Apollo Server's codes and its 400. */
const clientErrors = (errors: readonly GraphQLError[], code: string) =>
  refused(
    answeredOutcome({
      errors: errors.map(
        (error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: { code, http: { status: 400 } } }),
      ),
    }),
  );

/**
 * A refusal's HTTP status: its error's code's (an ApiError thrown by a subscribe function names only its code), 400
 * for a document that does not parse or validate, else what the outcome says.
 */
function refused(outcome: ExecutionOutcome): { refused: ExecutionOutcome } {
  const code = outcome.result.errors?.[0]?.extensions?.code;
  const status =
    typeof code === 'string' && code in STATUS_BY_CODE
      ? STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE]
      : code === 'GRAPHQL_VALIDATION_FAILED' || code === 'GRAPHQL_PARSE_FAILED'
        ? 400
        : outcome.status;
  return { refused: { ...outcome, status } };
}

/**
 * The execution seam's subscriptions (`Execution.subscribe`): `@apollo/gateway` executes none, so they run here on
 * the subgraph that defines them, in process, after the same checks as every operation: parsed, validated against
 * the API schema, the operation guard (bounds, plan table, field limits). Then graphql-js's two steps, separately:
 * the source stream of events (the subscribe function: markets/types/event-subscriptions.ts), and each event
 * executed into a response with a context of its own, so per-request loaders do not live as long as the stream.
 * The event's cursor is kept beside its response, for the channel (SSE's `id:`, `extensions.cursor`).
 */
export function createSubscribe(schema: GraphQLSchema, subgraphs: readonly InProcessSubgraph[], guard: OperationGuard) {
  // graphql-js validates a subscription against a schema without a Subscription type (no rule checks the root).
  const streaming = subgraphs.filter(({ schema: subgraphSchema }) => subgraphSchema.getSubscriptionType());
  return async function subscribe(request: OperationRequest, context: RequestContext): Promise<SubscriptionOutcome> {
    try {
      let document: DocumentNode;
      try {
        document = request.document ?? parsedDocument(request.query);
      } catch (error) {
        if (error instanceof GraphQLError) return clientErrors([error], 'GRAPHQL_PARSE_FAILED');
        throw error;
      }
      const invalid = validate(schema, document);
      if (invalid.length) return clientErrors(invalid, 'GRAPHQL_VALIDATION_FAILED');
      const operation = resolveOperation(document, request.operationName);
      if (operation.operation !== OperationTypeNode.SUBSCRIPTION) {
        return refused(failedOutcome(new BadRequestError({ query: 'is not a subscription' }, NOT_A_SUBSCRIPTION)));
      }
      const variables = request.variables ?? {};
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
      if (coerced.errors) return clientErrors(coerced.errors, 'BAD_USER_INPUT');
      const refusal = await guard({ schema, document, operation, variables, viewer: context.viewer });
      if (refusal) return refused(failedOutcome(refusal));
      const subgraph = wholeSubgraphOf(streaming, document);
      if (!subgraph) {
        return refused(failedOutcome(new BadRequestError({ query: 'subscribes to fields of more than one subgraph' })));
      }
      const args = {
        schema: subgraph.schema,
        document,
        variableValues: variables,
        operationName: request.operationName,
      };
      const source = await createSourceEventStream({ ...args, contextValue: context });
      if (!(Symbol.asyncIterator in source)) return refused(answeredOutcome(source));
      const events = source as AsyncIterableIterator<{ cursor?: string }>;
      const results: ResultStream = {
        async next() {
          const next = await events.next();
          if (next.done) return { done: true, value: undefined };
          const event = next.value;
          const result = (await execute({
            ...args,
            rootValue: event,
            contextValue: { ...context, loaders: new Map() },
          })) as ExecutionResult;
          return { done: false, value: { result: answeredOutcome(result).result, cursor: event.cursor } };
        },
        async return() {
          await events.return?.();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return results;
        },
      };
      return { results };
    } catch (error) {
      return refused(failedOutcome(error));
    }
  };
}
