import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Kind, OperationTypeNode, parse } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';

export type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource<RequestContext>['process']>>;

/** Distinct operation texts whose kind (query or not) is remembered; the planner emits a small, fixed set. */
const MAX_KINDS = 1_000;

interface Shared {
  response: Promise<SubgraphResponse>;
  /** Fetches answered by this execution; final once it settles (it leaves the map before any waiter resumes). */
  waiters: number;
}

/**
 * Identical subgraph queries in flight at the same time run once: concurrent clients asking the same thing
 * (the bench's ten connections, a dashboard's many users) cost one subgraph execution instead of one each.
 * Not a cache: an execution is shared only while it runs and forgotten as soon as it settles.
 *
 * Two fetches are identical when everything that can change the answer is: the subgraph, the operation text
 * and name, the variables (entity representations included) and the viewer, which is the whole identity the
 * gateway hands a subgraph (the viewer header over HTTP; in process the viewer, and the database its mode
 * selects). Rate limits, field limits and metering run per client request before any fetch, so sharing
 * weakens none of them. Mutations are never shared, and a query sent after a mutation has completed never
 * joins one that started before it, so a client reads its own writes.
 */
export class InFlightFetches {
  private readonly inFlight = new Map<string, Shared>();
  private readonly queryTexts = new Map<string, boolean>();
  /** Completed mutations; part of every key, so later queries do not join earlier ones. */
  private generation = 0;

  /** `enabled: false` (DEDUPLICATE_IN_FLIGHT=off) runs every fetch on its own: the bench measures work, not sharing. */
  constructor(private readonly options: { enabled: boolean } = { enabled: true }) {}

  /**
   * Runs `execute` for this fetch, or joins an identical execution under way. `document` is the operation
   * when the caller has it parsed already. Every waiter gets its own copy of the data: the gateway merges
   * the next fetches' results into it.
   */
  async fetch(
    subgraph: string,
    { request, context }: GraphQLDataSourceProcessOptions<RequestContext>,
    execute: () => Promise<SubgraphResponse>,
    document?: DocumentNode,
  ): Promise<SubgraphResponse> {
    if (!this.options.enabled) return execute();
    const query = request.query ?? '';
    if (!this.isQuery(query, request.operationName, document)) {
      try {
        return await execute();
      } finally {
        this.generation += 1;
      }
    }
    // Per-fetch HTTP headers (a trace request) would make fetches differ in ways the key does not see.
    if (request.http) return execute();

    const viewer = (context as Partial<RequestContext>).viewer ?? null;
    const key = JSON.stringify([
      subgraph,
      this.generation,
      viewer,
      request.operationName ?? null,
      query,
      request.variables ?? null,
    ]);
    let shared = this.inFlight.get(key);
    if (!shared) {
      const entry: Shared = { response: execute(), waiters: 0 };
      const forget = () => {
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
      };
      // Registered before any waiter's await, so the entry is gone (and `waiters` final) when they resume.
      entry.response.then(forget, forget);
      this.inFlight.set(key, entry);
      shared = entry;
    }
    shared.waiters += 1;
    const response = await shared.response;
    return shared.waiters === 1 ? response : copyResponse(response);
  }

  /** Fetches under way (tests watch it drain). */
  get size(): number {
    return this.inFlight.size;
  }

  private isQuery(query: string, operationName: string | undefined, document: DocumentNode | undefined): boolean {
    const key = `${operationName ?? ''}\n${query}`;
    let isQuery = this.queryTexts.get(key);
    if (isQuery === undefined) {
      isQuery = operationType(document ?? parseOrUndefined(query), operationName) === OperationTypeNode.QUERY;
      if (this.queryTexts.size < MAX_KINDS) this.queryTexts.set(key, isQuery);
    }
    return isQuery;
  }
}

function parseOrUndefined(query: string): DocumentNode | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

function operationType(
  document: DocumentNode | undefined,
  operationName: string | undefined,
): OperationTypeNode | undefined {
  const operations = (document?.definitions ?? []).filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((definition) => definition.name?.value === operationName)
    : operations[0];
  // An ambiguous or unknown operation is not shared; the subgraph answers it with its own error.
  return operation && (operationName || operations.length === 1) ? operation.operation : undefined;
}

/** A response the gateway may merge into without touching another waiter's: data copied, errors kept as they are. */
function copyResponse(response: SubgraphResponse): SubgraphResponse {
  return {
    ...response,
    ...(response.data !== undefined ? { data: copyJson(response.data) } : {}),
    ...(response.errors ? { errors: [...response.errors] } : {}),
  };
}

function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyJson((value as Record<string, unknown>)[key]);
  return copy as T;
}
