import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../subgraphs/platform/context.ts';

/**
 * Entities that a subgraph refers to by a key the owning subgraph may not hold: markets links every trade,
 * signal and ticker to the verticals `Company` by ticker, and a ticker without a company record resolves to
 * `null` (docs/design.md, "Two-way joins"). @apollo/gateway answers that null correctly but also lists, under
 * `extensions.valueCompletion`, one "Cannot return null for non-nullable field Company.<field>" per field the
 * query selected on it: noise that reads like an error on every such record. Those entries, and only those whose
 * path runs through a link that is null in the answer, are dropped; any other value-completion error stays.
 */
const OPTIONAL_ENTITY_TYPES = ['Company'];

type ValueCompletionError = { message?: string; path?: readonly (string | number)[] };

export const unresolvedEntitiesPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        const entries = result.extensions?.valueCompletion as ValueCompletionError[] | undefined;
        if (!Array.isArray(entries)) return;
        const kept = entries.filter((entry) => !isUnresolvedOptionalEntity(entry, result.data));
        if (kept.length === entries.length) return;
        const { valueCompletion: _dropped, ...rest } = result.extensions!;
        result.extensions = kept.length > 0 ? { ...rest, valueCompletion: kept } : rest;
        if (Object.keys(result.extensions).length === 0) delete result.extensions;
      },
    };
  },
};

function isUnresolvedOptionalEntity(entry: ValueCompletionError, data: unknown): boolean {
  const type = OPTIONAL_ENTITY_TYPES.find((name) =>
    entry.message?.startsWith(`Cannot return null for non-nullable field ${name}.`),
  );
  if (!type || !entry.path || entry.path.length < 2) return false;
  // The path ends at the entity's field; the entity itself (one step up) must have come out null.
  let value: unknown = data;
  for (const step of entry.path.slice(0, -1)) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value === null;
}
