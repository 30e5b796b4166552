import { z } from 'zod';
import { MAX_ID } from '../../platform/ids.ts';
import { snakeCase } from '../../platform/names.ts';
import type { IdCodec } from '../../platform/ids.ts';

/**
 * Filter pieces every record list shares. A filter names another record by its prefixed id (`company_id=b2b_7`);
 * a malformed one is a 400 here, not the 404 `parseId` gives a lookup.
 */
export function recordIdFilter({ prefix }: IdCodec) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_\\d{1,10}$`), `must be an id like ${prefix}_123`)
    .transform((value) => Number(value.slice(prefix.length + 1)))
    .refine((id) => id <= MAX_ID, `must be an id like ${prefix}_123`);
}

export const nonNegativeNumber = z.number().min(0, 'must be 0 or more');

export const percent = z.number().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100');

/** A practice area in any case (`personal injury`) as the records spell it (`Personal Injury`). */
export const practiceArea = z
  .string()
  .trim()
  .min(2, 'must be a practice area such as Personal Injury')
  .max(60, 'must be a practice area such as Personal Injury')
  .transform((value) =>
    value
      .split(/\s+/)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
      .join(' '),
  );

/** A city name, matched without regard to case. */
export const cityName = z.string().trim().min(1, 'must be a city name').max(80, 'must be at most 80 characters');

/** Each `[min, max]` pair: when both are given, the maximum must not be below the minimum (reported on the maximum). */
export function rangeRules(ranges: readonly [min: string, max: string][]) {
  return (filter: z.ZodObject): z.ZodType =>
    ranges.reduce<z.ZodType>(
      (schema, [min, max]) =>
        schema.refine(
          (values) => {
            const { [min]: low, [max]: high } = values as Record<string, number | undefined>;
            return low === undefined || high === undefined || low <= high;
          },
          { path: [max], message: `must not be below ${snakeCase(min)}` },
        ),
      filter,
    );
}
