import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DIR, composeSupergraph, printSubgraph } from '../../../gateway/supergraph.ts';

const checkedIn = (name: string) => readFileSync(`${SCHEMA_DIR}${name}.graphql`, 'utf8');

describe('the checked-in SDL', () => {
  it.each(['verticals', 'markets'] as const)('schema/%s.graphql matches the subgraph (run npm run schema)', (name) => {
    expect(printSubgraph(name)).toBe(checkedIn(name));
  });

  it('schema/supergraph.graphql matches the composition (run npm run schema)', () => {
    expect(composeSupergraph()).toBe(checkedIn('supergraph'));
  });
});
