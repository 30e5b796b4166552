import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import type { Execution, OperationRequest } from '../execution/execution.ts';
import { responseTypeFor } from './response-type.ts';

/** The body keys of a plain GraphQL-over-HTTP request; one with any other (`extensions`: persisted queries) is Apollo's. */
const PLAIN_REQUEST_KEYS = new Set(['query', 'variables', 'operationName']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation of a plain JSON POST, or undefined for any other request. */
function plainOperation(request: FastifyRequest): OperationRequest | undefined {
  if (request.method !== 'POST') return undefined;
  const body = request.body;
  if (!isRecord(body) || !Object.keys(body).every((key) => PLAIN_REQUEST_KEYS.has(key))) return undefined;
  const { query, variables, operationName } = body;
  if (typeof query !== 'string') return undefined;
  if (variables != null && !isRecord(variables)) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/**
 * The handler of GET and POST /graphql. A plain JSON POST, in a response type both sides agree on, is a channel
 * like any other: its operation goes to `execute` and the outcome is written as Apollo Server writes a response
 * (its bytes, status and headers; test/gateway/graphql-fast-path.test.ts compares them). Apollo Server's HTTP
 * handler answers the rest (persisted queries, GET, batches, bodies it refuses, types it negotiates otherwise):
 * it costs about 0.5 ms CPU a request around the execution (docs/performance.md, item 30), and nothing of that
 * request has run when it starts.
 */
export function graphqlRouteHandler(
  execution: Execution,
  contextFor: (request: FastifyRequest) => RequestContext,
  { apolloOnly = false } = {},
) {
  const apolloHandler = fastifyApolloHandler(execution.apollo, { context: async (request) => contextFor(request) });
  type Route = Parameters<typeof apolloHandler>;
  return async function answerGraphQL(this: FastifyInstance, request: Route[0], reply: Route[1]) {
    const operation = apolloOnly ? undefined : plainOperation(request);
    const contentType = operation && responseTypeFor(request.headers.accept);
    if (!operation || !contentType) return apolloHandler.call(this, request, reply);
    const { status, headers, result } = await execution.execute(operation, contextFor(request));
    sendResult(reply, contentType, status, headers, result);
    return reply;
  };
}

function sendResult(
  reply: FastifyReply,
  contentType: string,
  status: number,
  headers: [string, string][],
  result: unknown,
) {
  for (const [name, value] of headers) reply.header(name, value);
  // Apollo Server's serialisation: a newline after the JSON.
  reply
    .status(status)
    .type(contentType)
    .send(JSON.stringify(result) + '\n');
}
