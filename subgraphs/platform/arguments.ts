import { z } from 'zod';
import { parseArguments, withoutNulls } from './validation.ts';

/** A GraphQL input type: a built-in or custom scalar by name, or an enum or input type ref. */
export type ArgumentType = 'String' | 'Int' | 'Float' | 'Boolean' | 'Date' | 'DateTime' | 'JSON' | object;

/** One argument, declared once: its GraphQL type for the schema and its zod rule for validation. */
export interface ArgumentSpec<Schema extends z.ZodType = z.ZodType> {
  type: ArgumentType;
  schema: Schema;
  description?: string;
  required?: boolean;
}

export type ArgumentSpecs = Record<string, ArgumentSpec>;

/** The validated arguments: optional ones absent when the client left them out or sent null. */
export type ArgumentValues<Specs extends ArgumentSpecs> = { [Name in keyof Specs]?: z.output<Specs[Name]['schema']> };

/** What Pothos's argument builder offers that this helper uses (`t.arg` in a field, `t` in `builder.args`). */
interface ArgumentBuilder {
  field(options: { type: ArgumentType; required: boolean; description?: string }): unknown;
}

export interface DefinedArguments<Specs extends ArgumentSpecs> {
  specs: Specs;
  names: readonly string[];
  /**
   * The Pothos arguments, for a field's `args` (spread them beside paging arguments). Typed as no keys: a resolver
   * reads them through `parse`, whose result is typed from the zod rules.
   */
  graphql(t: unknown): Record<never, never>;
  /** Validates GraphQL (or report-job) arguments; every problem at once, a BadRequestError keyed by argument. */
  parse(args: object): ArgumentValues<Specs>;
}

export const argument = <Schema extends z.ZodType>(
  type: ArgumentType,
  schema: Schema,
  options: { description?: string; required?: boolean } = {},
): ArgumentSpec<Schema> => ({ type, schema, ...options });

/**
 * A field's arguments from one declaration each, so the schema's argument and its validation cannot drift.
 * `refine` adds rules across arguments (a minimum not above its maximum).
 */
export function defineArguments<Specs extends ArgumentSpecs>(
  specs: Specs,
  refine: (object: z.ZodObject) => z.ZodType = (object) => object,
): DefinedArguments<Specs> {
  const shape = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, spec.required ? spec.schema : spec.schema.optional()]),
  );
  const schema = refine(z.object(shape));
  return {
    specs,
    names: Object.keys(specs),
    graphql: (t) =>
      Object.fromEntries(
        Object.entries(specs).map(([name, spec]) => [
          name,
          (t as ArgumentBuilder).field({ type: spec.type, required: spec.required ?? false, description: spec.description }),
        ]),
      ) as Record<never, never>,
    parse: (args) => parseArguments(schema, withoutNulls(args as Record<string, unknown>)) as ArgumentValues<Specs>,
  };
}
