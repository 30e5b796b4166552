import { buildSchema, graphql } from 'graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import { executesPath } from '../../../subgraphs/platform/selection.ts';

/** What `executesPath` says of `lead.evidence` for an operation, read inside a real graphql-js execution. */
async function executesEvidence(source: string, variableValues: Record<string, unknown> = {}): Promise<boolean> {
  const schema = buildSchema(`
    type Evidence { id: ID }
    type Lead { ticker: String, evidence: [Evidence] }
    type Answer { leads: [Lead] }
    type Query { answer(n: Int): Answer }
  `);
  let seen: boolean | undefined;
  const rootValue = {
    answer: (_args: unknown, _context: unknown, info: GraphQLResolveInfo) => {
      seen = executesPath(info, ['leads', 'evidence']);
      return { leads: [] };
    },
  };
  const result = await graphql({ schema, source, rootValue, variableValues });
  expect(result.errors).toBeUndefined();
  return seen!;
}

describe('executesPath', () => {
  it('finds a field selected directly, through an inline fragment and through a named fragment', async () => {
    expect(await executesEvidence('{ answer { leads { ticker evidence { id } } } }')).toBe(true);
    expect(await executesEvidence('{ answer { leads { ... on Lead { evidence { id } } } } }')).toBe(true);
    expect(await executesEvidence('{ answer { ...A } } fragment A on Answer { leads { evidence { id } } }')).toBe(true);
  });

  it('says no when the field is not selected, or selected at another depth', async () => {
    expect(await executesEvidence('{ answer { leads { ticker } } }')).toBe(false);
  });

  it('honours @include and @skip with the request’s variables, on the field and on a fragment', async () => {
    const included = 'query ($e: Boolean!) { answer { leads { ticker evidence @include(if: $e) { id } } } }';
    expect(await executesEvidence(included, { e: true })).toBe(true);
    expect(await executesEvidence(included, { e: false })).toBe(false);
    const skipped = 'query ($s: Boolean!) { answer { leads { ... @skip(if: $s) { evidence { id } } } } }';
    expect(await executesEvidence(skipped, { s: true })).toBe(false);
    expect(await executesEvidence(skipped, { s: false })).toBe(true);
  });
});
