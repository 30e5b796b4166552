import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import type { JsonSchema } from '../openapi/json-schema.ts';
import { ANSWER_BUDGET } from './answer-budget.ts';
import { decodeCursor } from './cursor.ts';
import { PRESENT } from './tool-catalog.ts';
import type { ToolDefinition, ToolVariant } from './tool-catalog.ts';
import { COMMON_ARGUMENTS } from './tool-schemas.ts';

/** The arguments every tool reads itself (tool-schemas.ts COMMON_ARGUMENTS), checked. */
export interface CallOptions {
  fields?: string[];
  budgetTokens: number;
  dryRun: boolean;
  /** Items of the page an earlier answer already gave (from its cursor). */
  skip: number;
}

/** A call's arguments read: its options and the rest, which feed the tool's routes. */
export interface ReadArguments {
  options: CallOptions;
  /** Everything but the common arguments, the cursor's own when one was given: what a next cursor carries. */
  arguments: Record<string, unknown>;
}

/**
 * Reads a call's arguments against the tool's input schema: names it does not take, and common arguments of the
 * wrong type, are one 400 naming each (in the REST routes' words). The route's own parameters are the route's to
 * check, as over REST.
 */
export function readArguments(
  tool: { name: string; inputSchema: JsonSchema },
  given: Record<string, unknown> | undefined,
): ReadArguments {
  const args = given ?? {};
  const problems: Record<string, string> = Object.create(null);
  const known = tool.inputSchema.properties as Record<string, JsonSchema>;
  for (const name of Object.keys(args)) {
    if (!Object.hasOwn(known, name)) problems[name] = 'is not an argument of this tool';
  }
  const { fields, cursor, max_tokens: maxTokens, dry_run: dryRun, ...rest } = args;
  if (
    fields !== undefined &&
    !(Array.isArray(fields) && fields.length <= 50 && fields.every((field) => typeof field === 'string'))
  ) {
    problems.fields = 'must be an array of at most 50 field names';
  }
  const maxBudget = ANSWER_BUDGET.defaultTokens;
  const minBudget = COMMON_ARGUMENTS.max_tokens!.minimum as number;
  if (
    maxTokens !== undefined &&
    !(Number.isInteger(maxTokens) && (maxTokens as number) >= minBudget && (maxTokens as number) <= maxBudget)
  ) {
    problems.max_tokens = `must be an integer from ${minBudget} to ${maxBudget}`;
  }
  if (dryRun !== undefined && typeof dryRun !== 'boolean') problems.dry_run = 'must be true or false';
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor.length > 4096)) {
    problems.cursor = 'must be a cursor this tool gave';
  }
  if (Object.keys(problems).length > 0) throw new BadRequestError({ ...problems });

  let routeArguments: Record<string, unknown> = rest;
  let skip = 0;
  if (typeof cursor === 'string') {
    const read = decodeCursor(cursor, tool.name);
    for (const [name, value] of Object.entries(rest)) {
      if (JSON.stringify(read.arguments[name]) !== JSON.stringify(value)) {
        throw new BadRequestError({
          [name]: 'differs from the cursor’s; leave it out to go on, or start again without the cursor',
        });
      }
    }
    routeArguments = read.arguments;
    skip = read.skip;
  }
  return {
    options: {
      fields: fields as string[] | undefined,
      budgetTokens: (maxTokens as number | undefined) ?? maxBudget,
      dryRun: dryRun === true,
      skip,
    },
    arguments: routeArguments,
  };
}

/** The variant the arguments pick: the selector's value (or its default), then the first `when` that holds. */
export function chooseVariant(tool: ToolDefinition, args: Record<string, unknown>): ToolVariant {
  const { selector } = tool;
  const value = selector ? (args[selector.name] ?? selector.default) : undefined;
  if (selector) {
    const values = [...new Set(tool.variants.map((variant) => variant.when[selector.name]))];
    if (value === undefined) throw new BadRequestError({ [selector.name]: 'is required' });
    if (typeof value !== 'string' || !values.includes(value)) {
      throw new BadRequestError({ [selector.name]: `must be one of ${values.join(', ')}` });
    }
  }
  const chosen = tool.variants.find((variant) =>
    Object.entries(variant.when).every(([name, wanted]) =>
      wanted === PRESENT ? args[name] !== undefined && args[name] !== null : (args[name] ?? value) === wanted,
    ),
  );
  // Every selector value has a variant without further conditions, so this is a catalog mistake.
  if (!chosen) throw new Error(`${tool.name}: no variant for ${JSON.stringify(args)}`);
  return chosen;
}
