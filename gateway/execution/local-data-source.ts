import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { parse, validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { executeCompiled } from './compiled-execution.ts';
import type { InFlightFetches, SubgraphResponse } from './in-flight-fetches.ts';

/** Distinct subgraph operations kept parsed; the query planner emits a small, fixed set per client operation. */
const MAX_DOCUMENTS = 1_000;

/**
 * A subgraph executed in this process, like `LocalGraphQLDataSource`, but parsing and validating each distinct
 * operation once. `LocalGraphQLDataSource` runs graphql-js `graphql()` on every fetch; profiles of the bench
 * (docs/performance.md) showed its validation alone at about a tenth of the gateway's CPU time. Identical
 * queries in flight at the same time share one execution (see in-flight-fetches.ts); an operation that recurs
 * runs compiled (compiled-execution.ts).
 */
export class CachedLocalDataSource implements GraphQLDataSource<RequestContext> {
  private readonly documents = new Map<string, DocumentNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly name: string,
    private readonly inFlight: InFlightFetches,
  ) {}

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<SubgraphResponse> {
    const { request, context } = options;
    const query = request.query ?? '';
    let document = this.documents.get(query);
    if (!document) {
      document = parse(query);
      const errors = validate(this.schema, document);
      if (errors.length > 0) return { errors: errors.map((error) => error.toJSON()) };
      if (this.documents.size < MAX_DOCUMENTS) this.documents.set(query, document);
    }
    const parsed = document;
    return this.inFlight.fetch(
      this.name,
      options,
      async () =>
        (await executeCompiled({
          schema: this.schema,
          document: parsed,
          variableValues: request.variables,
          operationName: request.operationName,
          contextValue: context,
        })) as SubgraphResponse,
      parsed,
    );
  }
}
