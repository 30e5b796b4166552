import type { z } from 'zod';
import { BadRequestError } from './errors.ts';

/**
 * Parses resolver arguments with a zod schema. Every problem is reported at once, keyed by the argument's
 * name; the REST shims rename the keys to their query parameters.
 */
export function parseArguments<Schema extends z.ZodType>(schema: Schema, args: unknown): z.output<Schema> {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const details: Record<string, string> = {};
  for (const issue of result.error.issues) {
    // A strict object reports its unknown keys in one issue: name each, as the client sent it.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details[[...issue.path, key].join('.')] ??= 'is not a parameter of this endpoint';
      continue;
    }
    const name = issue.path.join('.') || 'input';
    details[name] ??= issue.message;
  }
  throw new BadRequestError(details);
}

/** Drops null and undefined entries, since GraphQL passes omitted nullable arguments as null. */
export function withoutNulls<T extends Record<string, unknown>>(args: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value != null)) as {
    [K in keyof T]?: NonNullable<T[K]>;
  };
}
