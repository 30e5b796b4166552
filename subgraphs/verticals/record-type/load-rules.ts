import { z } from 'zod';
import { stateCodeOf } from '../../platform/us-states.ts';

/**
 * Rules a loaded record's fields must meet beyond their stored type (docs/data-sources.md "Records"): the same
 * schemas the list filters use where a filter exists (state codes, enumerations, ranges), and these for fields
 * no filter takes. Each runs on a value already converted to the column's type.
 */

/** Free text as the API shows it: trimmed, not empty, bounded so one row cannot bloat a page. */
export const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A state by code or by name ("AR", "Arkansas"), stored as its code. */
export const usState = z.string().transform((value, context) => {
  const code = stateCodeOf(value);
  if (code) return code;
  context.addIssue({ code: 'custom', message: 'must be a US state code such as CA, or its name' });
  return z.NEVER;
});

/** "Saint Paul, Minnesota": the city, and the state's code when the last part names a US state. */
export function splitPlace(place: unknown): { city?: string; state?: string } {
  if (typeof place !== 'string' || !place.includes(',')) return {};
  const at = place.lastIndexOf(',');
  const state = stateCodeOf(place.slice(at + 1));
  return state ? { city: place.slice(0, at).trim(), state } : {};
}

export const email = z.email('must be an e-mail address such as ana@example.com').max(254);

export const zipCode = z.string().regex(/^\d{5}$/, 'must be a five-digit ZIP code');

export const score = z
  .number()
  .int('must be an integer')
  .min(0, 'must be from 0 to 100')
  .max(100, 'must be from 0 to 100');

export const count = z.number().int('must be an integer').min(0, 'must be 0 or more');

/** A year a company was founded, a house built or a lawyer admitted: not before 1600, not in the future. */
export const pastYear = z
  .number()
  .int('must be a year such as 1998')
  .min(1600, 'must be a year from 1600 on')
  .refine((year) => year <= new Date().getUTCFullYear(), 'must not be in the future');

/** A lower-case token as the filters take it (`software`, `sales`): loaded text is folded to one. */
export const token = z
  .string()
  .transform((value) =>
    value
      .toLowerCase()
      .replace(/[^a-z]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40),
  )
  .refine((value) => value.length >= 2, 'must have at least two letters');
