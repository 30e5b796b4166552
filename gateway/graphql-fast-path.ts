import { OperationTypeNode, validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { RequestContext } from '../subgraphs/platform/context.ts';
import { checkOperation } from './access/operation-plugin.ts';
import { executeDirectly } from './direct-execution.ts';
import { handOver } from './hand-over.ts';
import type { InFlightFetches } from './in-flight-fetches.ts';
import { hasUnsafeText } from './input/graphql-text-plugin.ts';
import type { createFieldLimiter } from './limits/field-limits.ts';
import { parsedDocument } from './limits/measured-operations.ts';
import { resolveOperation } from './limits/operation-bounds.ts';
import { acceptsVariables, rememberedWholeSubgraph } from './whole-subgraph.ts';
import type { InProcessSubgraph } from './whole-subgraph.ts';

export interface GraphQLFastPathOptions {
  apiSchema: GraphQLSchema;
  subgraphs: readonly InProcessSubgraph[];
  checkFieldLimits: ReturnType<typeof createFieldLimiter>;
  inFlight: InFlightFetches;
}

/** The body keys Apollo Server reads; a request with any other (`extensions`: persisted queries) is Apollo's. */
const PLAIN_REQUEST_KEYS = new Set(['query', 'variables', 'operationName']);

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
/** What Apollo Server offers a single result in, in its order (chooseContentTypeForSingleResultResponse). */
const OFFERED_TYPES = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE, 'application/json; callbackSpec=1.0'];
/** Distinct `accept` headers whose negotiated type is remembered; clients send a handful. */
const MAX_ACCEPT_HEADERS = 64;

/**
 * The type Apollo Server would answer in, by the same negotiation; undefined for one it would refuse (406) or
 * answers otherwise (the subscription callback type), which the fast path leaves to it.
 */
function negotiateResponseType(accept: string): string | undefined {
  const chosen = new Negotiator({ headers: { accept } }).mediaType(OFFERED_TYPES);
  return chosen === JSON_TYPE || chosen === GRAPHQL_RESPONSE_TYPE ? chosen : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * POST /graphql for a query one in-process subgraph answers whole, without Apollo Server's request pipeline when
 * it succeeds. Profiles of the bench's GraphQL line (docs/performance.md, item 30) put that pipeline (plugins'
 * hooks, hashing, content negotiation, promise chains) at about 0.5 ms CPU a request, a third of the request,
 * around an execution the REST shim already runs without it (rest/direct.ts).
 *
 * The fast path does what Apollo Server and our plugins would: the document parsed and valid against the API
 * schema (both remembered per text and document), the operation resolved, the unsafe-text check, the operation
 * guard (bounds, plan table, field limits), execution on the subgraph (direct-execution.ts). It answers only a
 * clean success, in Apollo Server's bytes and headers. Any other request goes to Apollo Server: one the fast path
 * cannot judge, before anything ran; one the guard refused, or whose execution reported errors or threw, with
 * that outcome handed over (hand-over.ts), so Apollo Server formats it as always while field limits are charged
 * and the operation executed once. test/gateway/graphql-fast-path.test.ts compares both paths' responses.
 */
export function graphqlFastPath(options: GraphQLFastPathOptions) {
  const { apiSchema, subgraphs, checkFieldLimits, inFlight } = options;
  const chosenTypes = new Map<string, string | undefined>();
  const responseTypeFor = (accept: string | undefined) => {
    if (!accept) return JSON_TYPE;
    if (!chosenTypes.has(accept)) {
      if (chosenTypes.size >= MAX_ACCEPT_HEADERS) chosenTypes.clear();
      chosenTypes.set(accept, negotiateResponseType(accept));
    }
    return chosenTypes.get(accept);
  };
  const subgraphFor = rememberedWholeSubgraph(subgraphs, (document) => validate(apiSchema, document).length === 0);

  /** The response body when the fast path answered; undefined when Apollo Server is to answer. */
  return async function answerDirectly(
    request: FastifyRequest,
    reply: FastifyReply,
    context: RequestContext,
  ): Promise<string | undefined> {
    const body = request.body;
    if (!isRecord(body) || !Object.keys(body).every((key) => PLAIN_REQUEST_KEYS.has(key))) return undefined;
    const { query, variables, operationName } = body;
    if (typeof query !== 'string') return undefined;
    if (variables != null && !isRecord(variables)) return undefined;
    if (operationName != null && typeof operationName !== 'string') return undefined;
    const contentType = responseTypeFor(request.headers.accept);
    if (!contentType) return undefined;

    let document: DocumentNode;
    try {
      document = parsedDocument(query);
    } catch {
      return undefined;
    }
    const subgraph = subgraphFor(document);
    if (!subgraph) return undefined;
    let operation;
    try {
      operation = resolveOperation(document, operationName);
    } catch {
      return undefined;
    }
    const values = variables ?? {};
    if (operation.operation !== OperationTypeNode.QUERY || !acceptsVariables(subgraph, operation, values))
      return undefined;
    if (hasUnsafeText(document, values)) return undefined;

    try {
      await checkOperation(checkFieldLimits, {
        schema: apiSchema,
        document,
        operation,
        variables: values,
        viewer: context.viewer,
      });
    } catch (error) {
      handOver(context, { kind: 'refused', error });
      return undefined;
    }
    let result;
    try {
      result = await executeDirectly(
        subgraph,
        { document, text: query, operationName: operation.name?.value, variables: values },
        context,
        inFlight,
      );
    } catch (error) {
      handOver(context, { kind: 'failed', error });
      return undefined;
    }
    if (result.errors?.length) {
      handOver(context, { kind: 'answered', result });
      return undefined;
    }
    // Apollo Server's headers for a response without errors (its cache-control plugin, no hints: not cacheable).
    reply.header('cache-control', 'no-store').type(contentType);
    return JSON.stringify({ data: result.data, extensions: result.extensions }) + '\n';
  };
}
