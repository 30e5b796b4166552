import type { z } from 'zod';
import { BadRequestError } from './errors.ts';

type Issue = z.core.$ZodRawIssue;

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'a JSON object',
  date: 'a date',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an e-mail address',
  uuid: 'a UUID',
  url: 'a URL',
  date: 'a date in the form YYYY-MM-DD',
  datetime: 'a date and time in ISO 8601 form',
};

const bound = (issue: { inclusive?: boolean }, inclusive: string, exclusive: string) =>
  issue.inclusive === false ? exclusive : inclusive;

/**
 * The API's words for a rule that has no message of its own (zod's would read "Invalid input: expected string,
 * received undefined"). Rules with their own message keep it: zod asks this map only when the schema has none.
 */
export function apiMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`}`;
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') {
        return minimum <= 1 ? 'must not be empty' : `must be at least ${minimum} characters`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at least ${minimum} items`;
      return bound(issue, `must be ${minimum} or more`, `must be more than ${minimum}`);
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${maximum} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${maximum} items`;
      return bound(issue, `must be at most ${maximum}`, `must be less than ${maximum}`);
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return FORMAT_WORDS[issue.format] ? `must be ${FORMAT_WORDS[issue.format]}` : 'is not in the expected form';
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return 'is not valid';
  }
}

/**
 * Parses resolver arguments with a zod schema. Every problem is reported at once, keyed by the argument's
 * name, in the API's words; the REST shims rename the keys to their query parameters.
 */
export function parseArguments<Schema extends z.ZodType>(schema: Schema, args: unknown): z.output<Schema> {
  const result = schema.safeParse(args, { error: apiMessage });
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

/**
 * Runs several validations of one request and reports the problems of all of them in one 400, rather than the
 * first one's only. Another error (a 404 for an id of another type) is thrown when no validation found a problem.
 */
export function validateTogether<const Checks extends readonly (() => unknown)[]>(
  ...checks: Checks
): { [K in keyof Checks]: ReturnType<Checks[K]> } {
  const details: Record<string, string> = {};
  let other: unknown;
  const values = checks.map((check) => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof BadRequestError && error.details)) other ??= error;
      else for (const [name, problem] of Object.entries(error.details)) details[name] ??= problem;
      return undefined;
    }
  });
  if (Object.keys(details).length > 0) throw new BadRequestError(details);
  if (other !== undefined) throw other;
  return values as { [K in keyof Checks]: ReturnType<Checks[K]> };
}

/** Drops null and undefined entries, since GraphQL passes omitted nullable arguments as null. */
export function withoutNulls<T extends Record<string, unknown>>(args: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value != null)) as {
    [K in keyof T]?: NonNullable<T[K]>;
  };
}
