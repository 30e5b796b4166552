/** The numbers behind docs/api.md "Plans and limits"; the per-plan ones live in subgraphs/platform/plans.ts. */
export type RateLimitScheme = 'A' | 'B';

/** Expensive GraphQL fields: each has its own limit per account, on top of the plan's request limit. */
export const FIELD_LIMITS: Record<string, { max: number; window: string }> = {
  'Query.search': { max: 30, window: '1m' },
  'Query.ticker': { max: 30, window: '1m' },
  'Query.members': { max: 30, window: '1m' },
  'Mutation.generateReport': { max: 10, window: '1h' },
};

/**
 * Bounds on one GraphQL request, all decided before it is validated or runs (docs/security.md "GraphQL operation bounds"):
 * measured by gateway/limits/query-cost.ts in time linear in the document, fragments measured once each.
 */
export const QUERY_LIMITS = {
  /** Data fields nested inside one another. */
  maxDepth: 10,
  /** Fields nested from `__schema` or `__type` down; GraphiQL's introspection query (typeDepth 9) nests 15. */
  maxIntrospectionDepth: 20,
  /** Estimated fields resolved: each field 1, a list multiplies what is below it by its page size. */
  maxCost: 20_000,
  /** Items assumed in an introspection list (types, fields, arguments…), which no argument sizes. */
  introspectionListSize: 5,
  /** Times one field, or one response name, may be selected in one selection set (aliases and fragments included). */
  maxAliasesPerField: 10,
  /** Top-level fields of one operation, fragments expanded. */
  maxRootFields: 20,
  /** Mutation fields of one operation (they run one after another). */
  maxMutations: 5,
  /** Lexical tokens of one GraphQL document (graphql-js parse option `maxTokens`). */
  maxTokens: 2_000,
  /** Bytes of one POST /graphql body. */
  maxBodyBytes: 102_400,
};

export interface LimitOptions {
  scheme: RateLimitScheme;
  /** Counters shared by every gateway when set; in this process's memory otherwise. */
  redisUrl?: string;
  /** Calls a sandbox key has in all. */
  sandboxCredits: number;
}
