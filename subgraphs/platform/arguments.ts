import { z } from 'zod';
import { parseArguments, withoutNulls } from './validation.ts';

/** A GraphQL input type: a built-in or custom scalar by name, or an enum, input type or list ref. */
export type ArgumentType = 'String' | 'Int' | 'Float' | 'Boolean' | 'Date' | 'DateTime' | 'JSON' | object;

export interface ArgumentOptions<Schema extends z.ZodType = z.ZodType> {
  description?: string;
  /**
   * Required: non-null in the schema. `'validated'` keeps it nullable in the schema, so a missing one is a 400
   * naming it (with the rule's own message) like any other invalid argument.
   */
  required?: boolean | 'validated';
  /** The schema's default, which validation also applies when the argument is left out or null. */
  defaultValue?: z.input<Schema>;
}

/** One argument, declared once: its GraphQL type for the schema and its zod rule for validation. */
export interface ArgumentSpec<Schema extends z.ZodType = z.ZodType> extends ArgumentOptions<Schema> {
  type: ArgumentType;
  schema: Schema;
}

/** The extension of a GraphQL argument or input field that holds its zod rule (gateway/openapi reads it). */
export const ARGUMENT_RULE = 'rule';

export type ArgumentSpecs = Record<string, ArgumentSpec>;

/** Whether a validated argument always has a value: required, defaulted, or a rule with its own zod default. */
type AlwaysGiven<Spec extends ArgumentSpec> = Spec extends
  { required: true | 'validated' } | { defaultValue: NonNullable<unknown> }
  ? true
  : undefined extends z.output<Spec['schema']>
    ? false
    : undefined extends z.input<Spec['schema']>
      ? true
      : false;

type GivenNames<Specs extends ArgumentSpecs> = {
  [Name in keyof Specs]: AlwaysGiven<Specs[Name]> extends true ? Name : never;
}[keyof Specs];

/** The validated arguments: optional ones absent when the client left them out or sent null. */
export type ArgumentValues<Specs extends ArgumentSpecs> = {
  [Name in GivenNames<Specs>]: z.output<Specs[Name]['schema']>;
} & {
  [Name in Exclude<keyof Specs, GivenNames<Specs>>]?: z.output<Specs[Name]['schema']>;
};

type FieldFactory = (options: {
  type: ArgumentType;
  required: boolean;
  description?: string;
  defaultValue?: unknown;
  extensions?: Record<string, unknown>;
}) => unknown;

/** Pothos's input field factory: `t.arg` in a field is one; `t` in `builder.args` or an input type has one as `field`. */
function fieldFactory(t: unknown): FieldFactory {
  return typeof t === 'function' ? (t as FieldFactory) : (options) => (t as { field: FieldFactory }).field(options);
}

export interface DefinedArguments<Specs extends ArgumentSpecs> {
  specs: Specs;
  names: readonly string[];
  /**
   * The Pothos arguments, for a field's `args` (spread them beside paging arguments) or an input type's `fields`.
   * Typed as no keys: a resolver reads them through `parse`, whose result is typed from the zod rules.
   */
  graphql(t: unknown): Record<never, never>;
  /** Validates GraphQL (or report-job) arguments; every problem at once, a BadRequestError keyed by argument. */
  parse(args: object): ArgumentValues<Specs>;
}

export const argument = <
  Schema extends z.ZodType,
  const Options extends ArgumentOptions<Schema> = Record<never, never>,
>(
  type: ArgumentType,
  schema: Schema,
  options: Options = {} as Options,
): ArgumentSpec<Schema> & Options => ({ type, schema, ...options });

/** The zod rule of one argument within its object: optional unless required, defaulted when it has a default. */
function fieldRule(spec: ArgumentSpec): z.ZodType {
  if (spec.defaultValue !== undefined) return spec.schema.default(spec.defaultValue as never);
  return spec.required ? spec.schema : spec.schema.optional();
}

/**
 * A field's arguments from one declaration each, so the schema's argument and its validation cannot drift.
 * `refine` adds rules across arguments (a minimum not above its maximum).
 */
export function defineArguments<Specs extends ArgumentSpecs>(
  specs: Specs,
  refine: (object: z.ZodObject) => z.ZodType = (object) => object,
): DefinedArguments<Specs> {
  const shape = Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, fieldRule(spec)]));
  const schema = refine(z.object(shape));
  return {
    specs,
    names: Object.keys(specs),
    graphql: (t) => {
      const field = fieldFactory(t);
      return Object.fromEntries(
        Object.entries(specs).map(([name, spec]) => [
          name,
          field({
            type: spec.type,
            required: spec.required === true,
            description: spec.description,
            defaultValue: spec.defaultValue,
            // The rule travels with the argument, so the OpenAPI document states its ranges and patterns.
            extensions: { [ARGUMENT_RULE]: spec.schema },
          }),
        ]),
      ) as Record<never, never>;
    },
    parse: (args) => parseArguments(schema, withoutNulls(args as Record<string, unknown>)) as ArgumentValues<Specs>,
  };
}
