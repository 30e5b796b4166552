import { describe, expect, it } from 'vitest';
import { mergePartialRun } from '../../../scripts/bench/merge.ts';
import type { Measurement } from '../../../scripts/bench/measure.ts';
import type { ScaleResult } from '../../../scripts/bench/report.ts';

const line = (name: string, detail: string, p95: number): Measurement => ({
  name,
  detail,
  result: { rps: 100, p50: p95 / 2, p95, p99: p95 * 2 } as Measurement['result'],
});

const entry = (measuredAt: string, rest: Measurement[], layers: Measurement[]): ScaleResult =>
  ({ scale: 100_000, measuredAt, conditions: { loadBefore: 1 }, rest, layers, federated: [] }) as never;

const recorded = entry(
  '2026-11-25T10:00:00.000Z',
  [
    line('/api/v1/b2b/companies', 'unselective', 4),
    line('/api/v1/search', 'unselective: q=walker', 300),
    line('/api/stats/public', 'unselective', 6),
  ],
  [line('raw SQL (pg)', 'page + count', 10)],
);

describe('a partial bench run merged into the recorded scale', () => {
  it('replaces the lines of the routes it measured, keeps every other line, in the scenario order', () => {
    const measured = entry('2026-11-25T12:00:00.000Z', [line('/api/v1/search', 'unselective: q=walker', 40)], []);
    const merged = mergePartialRun(recorded, measured, { parts: new Set(['rest']), routes: ['/api/v1/search'] });
    expect(merged.rest.map((kept) => [kept.name, kept.result?.p95, kept.measuredAt])).toEqual([
      ['/api/v1/b2b/companies', 4, undefined],
      ['/api/v1/search', 40, '2026-11-25T12:00:00.000Z'],
      ['/api/stats/public', 6, undefined],
    ]);
    // Parts it did not run, and the scale's conditions, stay the recorded run's.
    expect(merged.layers).toEqual(recorded.layers);
    expect(merged.measuredAt).toBe(recorded.measuredAt);
  });

  it('replaces a whole part it ran without --routes', () => {
    const measured = entry('2026-11-25T12:00:00.000Z', [], [line('raw SQL (pg)', 'page + count', 8)]);
    const merged = mergePartialRun(recorded, measured, { parts: new Set(['layers']) });
    expect(merged.layers.map((kept) => kept.result?.p95)).toEqual([8]);
    expect(merged.rest).toEqual(recorded.rest);
  });
});
