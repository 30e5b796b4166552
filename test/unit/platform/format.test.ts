import { describe, expect, it } from 'vitest';
import { formatRevenue } from '../../../subgraphs/platform/format.ts';

describe('formatRevenue', () => {
  it.each([
    [0, '$0'],
    [999, '$999'],
    [1000, '$1K'],
    [1050, '$1.1K'],
    [850_000, '$850K'],
    [999_949, '$999.9K'],
    // Rounding up to the next unit names that unit: never `$1000K`.
    [999_950, '$1M'],
    [999_999, '$1M'],
    [1_000_000, '$1M'],
    [1_150_000, '$1.2M'],
    [12_500_000, '$12.5M'],
    [999_949_999, '$999.9M'],
    [999_950_000, '$1B'],
    [1_000_000_000, '$1B'],
    [1_200_000_000, '$1.2B'],
    [999_900_000_000, '$999.9B'],
    [1_000_000_000_000, '$1T'],
    [1_500_000_000_000, '$1.5T'],
  ])('formats %d as %s', (usd, expected) => {
    expect(formatRevenue(usd)).toBe(expected);
  });
});
