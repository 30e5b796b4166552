import { describe, expect, it } from 'vitest';
import { createFieldLimiter } from '../../../gateway/limits/field-limits.ts';
import { FIELD_LIMITS } from '../../../gateway/limits/policy.ts';
import { MemoryCounterStore } from '../../../gateway/limits/store.ts';
import type { Viewer } from '../../../subgraphs/platform/context.ts';

describe('per-field limits of expensive fields (graphql-rate-limit)', () => {
  const viewer = (accountId: string): Viewer => ({ accountId, plan: 'institutional', mode: 'live' });

  it('refuses the call past a field’s own limit, per account, and ignores fields without one', async () => {
    const check = createFieldLimiter(new MemoryCounterStore());
    const report = new Map([['Mutation.generateReport', 1]]);
    const { max } = FIELD_LIMITS['Mutation.generateReport']!;
    for (let index = 0; index < max; index += 1) expect(await check(viewer('a'), report)).toBeUndefined();
    const refusal = await check(viewer('a'), report);
    expect(refusal).toEqual({
      coordinate: 'Mutation.generateReport',
      message: `Mutation.generateReport is limited to ${max} calls per 3600 seconds; retry later.`,
      retryAfter: 3600,
    });
    expect(await check(viewer('b'), report)).toBeUndefined();
    for (let index = 0; index < 100; index += 1) {
      expect(await check(viewer('a'), new Map([['Query.signals', 5]]))).toBeUndefined();
    }
  });

  it('charges every occurrence, and an operation refused for one field charges nothing at all', async () => {
    const check = createFieldLimiter(new MemoryCounterStore());
    const { max } = FIELD_LIMITS['Query.members']!;
    expect(await check(viewer('a'), new Map([['Query.members', max - 2]]))).toBeUndefined();
    // Three more would pass the limit: refused, and the search it came with is not charged either.
    expect(
      await check(
        viewer('a'),
        new Map([
          ['Query.search', 5],
          ['Query.members', 3],
        ]),
      ),
    ).toMatchObject({ coordinate: 'Query.members' });
    expect(await check(viewer('a'), new Map([['Query.members', 2]]))).toBeUndefined();
    expect(await check(viewer('a'), new Map([['Query.members', 1]]))).toMatchObject({ coordinate: 'Query.members' });
    const searchMax = FIELD_LIMITS['Query.search']!.max;
    expect(await check(viewer('a'), new Map([['Query.search', searchMax]]))).toBeUndefined();
    expect(await check(viewer('a'), new Map([['Query.search', 1]]))).toMatchObject({ coordinate: 'Query.search' });
  });
});
