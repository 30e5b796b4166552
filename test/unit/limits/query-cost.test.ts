import { buildSchema, getIntrospectionQuery, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fragmentsOf, resolveOperation } from '../../../gateway/limits/operation-bounds.ts';
import { QUERY_LIMITS } from '../../../gateway/limits/policy.ts';
import { measureOperation } from '../../../gateway/limits/query-cost.ts';
import { fragmentFanOut } from '../../support/fragment-fan-out.ts';

const schema = buildSchema(`
  type Query { publicStats: PublicStats! signals(limit: Int): SignalPage! }
  type PublicStats { signals7d: Int! }
  type SignalPage { nodes: [Signal!]! }
  type Signal { id: ID! ticker: String! }
`);

function measure(text: string) {
  const document = parse(text);
  return measureOperation(schema, resolveOperation(document, undefined), fragmentsOf(document));
}

describe('measuring an operation (linear in the document)', () => {
  it('measures each fragment once: a fan-out of 24, 40 and 1,000 levels is measured at once, at its expanded size', () => {
    for (const levels of [24, 40, 1_000]) {
      const started = performance.now();
      const shape = measure(fragmentFanOut(levels));
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(shape.rootFields).toBe(2 ** (levels - 1));
      expect(shape.mostRepeated).toEqual({ name: 'publicStats', count: 2 ** (levels - 1) });
      expect(shape.cost).toBe(2 ** levels);
      expect(shape.fields.get('Query.publicStats')).toBe(2 ** (levels - 1));
    }
  });

  it('counts aliases, page sizes through fragments, and introspection apart from the data depth', () => {
    const shape = measure(
      'query { a: signals(limit: 50) { ...Nodes } b: signals { ...Nodes } } fragment Nodes on SignalPage { nodes { id ticker } }',
    );
    expect(shape).toMatchObject({ depth: 3, rootFields: 2, cost: 2 * 1 + 2 * 1 + (50 + 25) * 2 });
    expect(shape.fields).toEqual(
      new Map([
        ['Query.signals', 2],
        ['SignalPage.nodes', 2],
        ['Signal.id', 2],
        ['Signal.ticker', 2],
      ]),
    );
    const introspection = measure(getIntrospectionQuery());
    expect(introspection.depth).toBe(1);
    expect(introspection.introspectionDepth).toBeLessThanOrEqual(QUERY_LIMITS.maxIntrospectionDepth);
    expect(introspection.cost).toBeGreaterThan(1_000);
    expect(introspection.cost).toBeLessThan(QUERY_LIMITS.maxCost / 2);
  });

  it('tolerates what validation refuses later: unknown fields and fragments, fragment cycles', () => {
    expect(measure('{ nothing { here } ...Missing }')).toMatchObject({ depth: 2, cost: 2 });
    expect(
      measure('query { ...A } fragment A on Query { publicStats { signals7d } ...B } fragment B on Query { ...A }')
        .rootFields,
    ).toBe(1);
  });
});
