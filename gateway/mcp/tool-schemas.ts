import type { JsonSchema } from '../openapi/json-schema.ts';
import { referencedComponents } from '../openapi/component-references.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { PRESENT } from './tool-catalog.ts';
import type { RouteKey, ToolDefinition, ToolVariant } from './tool-catalog.ts';
import { ANSWER_BUDGET } from './answer-budget.ts';

/** What a tool's variant reads of its route's OpenAPI operation. */
export interface RouteShape {
  /** Path parameters, each required. */
  path: Map<string, JsonSchema>;
  query: Map<string, JsonSchema>;
  /** The JSON body's fields, and those it requires. */
  body?: { properties: Map<string, JsonSchema>; required: Set<string> };
  /** The success answer's schema; a text answer (the HTML briefing) is `{html}`. */
  response: JsonSchema;
  /** Whether the answer is text to be wrapped as `{html}`. */
  text: boolean;
}

/** Arguments every tool takes beside its route's parameters (tool-arguments.ts reads them). */
export const COMMON_ARGUMENTS: Record<string, JsonSchema> = {
  fields: {
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 64 },
    maxItems: 50,
    description:
      'Keep only these fields of each listed item (or of the answer, when it is one object): smaller answers. ' +
      'Field names as the answer spells them.',
  },
  cursor: {
    type: 'string',
    maxLength: 4096,
    description:
      'The `next_cursor` of an earlier answer of this tool: the next page, or the rest of a page cut at the size ' +
      'budget. It carries that call’s arguments, so the others are not needed again.',
  },
  max_tokens: {
    type: 'integer',
    minimum: 500,
    maximum: ANSWER_BUDGET.defaultTokens,
    default: ANSWER_BUDGET.defaultTokens,
    description: 'The answer’s size budget in tokens (about 4 characters each); past it the answer is cut and says so.',
  },
  dry_run: {
    type: 'boolean',
    default: false,
    description: 'Check the arguments and the plan and say what the call would cost, without running it.',
  },
};

/** `/api/watchlist/:ticker` → `/api/watchlist/{ticker}`, as the OpenAPI document keys its paths. */
const documentPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

const SUCCESS = ['200', '201', '202'];

/** The parameters, body and answer of one route, from the OpenAPI document the service publishes. */
export function routeShape(document: OpenApiDocument, route: RouteKey): RouteShape {
  const [method, path] = route.split(' ') as [string, string];
  const operation = document.paths[documentPath(path)]?.[method.toLowerCase()] as JsonSchema | undefined;
  if (!operation) throw new Error(`the OpenAPI document has no ${route}`);
  const shape: RouteShape = { path: new Map(), query: new Map(), response: {}, text: false };
  for (const parameter of (operation.parameters ?? []) as { name: string; in: string; schema: JsonSchema }[]) {
    shape[parameter.in === 'path' ? 'path' : 'query'].set(parameter.name, parameter.schema);
  }
  const requestBody = operation.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
  const bodySchema = requestBody?.content['application/json']?.schema;
  if (bodySchema) {
    shape.body = {
      properties: new Map(Object.entries((bodySchema.properties ?? {}) as Record<string, JsonSchema>)),
      required: new Set((bodySchema.required ?? []) as string[]),
    };
  }
  const responses = operation.responses as Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  const success = SUCCESS.map((status) => responses[status]).find((response) => response?.content);
  const json = success?.content?.['application/json']?.schema;
  if (json) shape.response = json;
  else {
    shape.text = true;
    shape.response = { type: 'object', properties: { html: { type: 'string' } }, required: ['html'] };
  }
  return shape;
}

/** The route parameter a tool argument feeds in a variant (`renamed`), or the argument's own name. */
export const parameterFor = (variant: ToolVariant, argument: string) => variant.renamed?.[argument] ?? argument;

/** The tool argument that feeds a route parameter in a variant: `parameterFor` read backwards. */
export function argumentFor(variant: ToolVariant, parameter: string): string {
  const renamed = Object.entries(variant.renamed ?? {}).find(([, name]) => name === parameter);
  return renamed ? renamed[0] : parameter;
}

/** What a variant is for, in a description: `type: companies` or `action: save`. */
function variantLabel(tool: ToolDefinition, variant: ToolVariant): string {
  const value = tool.selector && variant.when[tool.selector.name];
  return typeof value === 'string' ? value : variant.route;
}

/**
 * A tool's input schema: its selector, the union of its variants' parameters and body fields (an argument that
 * only some variants take says which), and the common arguments.
 */
export function inputSchema(tool: ToolDefinition, shapes: Map<RouteKey, RouteShape>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const usedBy = new Map<string, Set<string>>();
  const requiredEverywhere = new Map<string, boolean>();
  const labels = new Set(tool.variants.map((variant) => variantLabel(tool, variant)));

  for (const variant of tool.variants) {
    const shape = shapes.get(variant.route)!;
    const label = variantLabel(tool, variant);
    const add = (parameter: string, schema: JsonSchema, required: boolean) => {
      const argument = argumentFor(variant, parameter);
      if (Object.hasOwn(COMMON_ARGUMENTS, argument) || argument === tool.selector?.name) {
        throw new Error(`${tool.name}: ${variant.route}'s ${parameter} needs another argument name (renamed)`);
      }
      properties[argument] = properties[argument] ? mergedSchema(properties[argument], schema) : schema;
      usedBy.set(argument, (usedBy.get(argument) ?? new Set()).add(label));
      requiredEverywhere.set(argument, (requiredEverywhere.get(argument) ?? true) && required);
    };
    for (const [name, schema] of shape.path) add(name, schema, variant.when[name] !== PRESENT);
    for (const [name, schema] of shape.query) add(name, schema, false);
    for (const [name, schema] of shape.body?.properties ?? []) add(name, schema, shape.body!.required.has(name));
  }
  for (const [argument, users] of usedBy) {
    if (users.size === labels.size || !tool.selector) continue;
    const only = `Only for ${tool.selector.name} ${[...users].join(', ')}.`;
    const described = (properties[argument]!.description as string | undefined)?.replace(/([^.!?])$/, '$1.');
    properties[argument] = { ...properties[argument], description: described ? `${described} ${only}` : only };
  }

  const selector = tool.selector && {
    [tool.selector.name]: {
      type: 'string',
      enum: [...new Set(tool.variants.map((variant) => variant.when[tool.selector!.name]))].filter(
        (value): value is string => typeof value === 'string',
      ),
      description: tool.selector.description,
      ...(tool.selector.default ? { default: tool.selector.default } : {}),
    },
  };
  const required = [
    ...(tool.selector && !tool.selector.default ? [tool.selector.name] : []),
    ...[...requiredEverywhere]
      .filter(([argument, required]) => required && usedBy.get(argument)!.size === labels.size)
      .map(([argument]) => argument),
  ];
  return {
    type: 'object',
    properties: { ...selector, ...properties, ...COMMON_ARGUMENTS },
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

const LOWER_BOUNDS = new Set(['minimum', 'minLength', 'minItems']);
const UPPER_BOUNDS = new Set(['maximum', 'maxLength', 'maxItems']);

/**
 * Two variants' schemas of one argument: enums joined, bounds widened to take both, a default kept when both
 * agree; schemas of different types fall back to `anyOf`.
 */
function mergedSchema(first: JsonSchema, second: JsonSchema): JsonSchema {
  if (JSON.stringify(first) === JSON.stringify(second)) return first;
  const types = new Set([first.type, second.type].flat());
  // Only `null` may differ (a body field that takes null, a query parameter that cannot be sent as one).
  const sameKind = [...types].filter((type) => type !== 'null').length === 1;
  if (!sameKind || first.$ref || second.$ref || first.anyOf || second.anyOf) {
    const { description, ...firstRest } = first;
    const { description: _, ...secondRest } = second;
    return { ...(description ? { description } : {}), anyOf: [firstRest, secondRest] };
  }
  const merged: JsonSchema = {};
  for (const key of new Set([...Object.keys(first), ...Object.keys(second)])) {
    const [a, b] = [first[key], second[key]];
    if (key === 'description') merged[key] = a ?? b;
    else if (key === 'type') merged[key] = types.size === 1 ? [...types][0] : [...types];
    else if (key === 'enum' && Array.isArray(a) && Array.isArray(b)) merged[key] = [...new Set([...a, ...b])];
    else if (LOWER_BOUNDS.has(key) && typeof a === 'number' && typeof b === 'number') merged[key] = Math.min(a, b);
    else if (UPPER_BOUNDS.has(key) && typeof a === 'number' && typeof b === 'number') merged[key] = Math.max(a, b);
    // A bound, pattern or default only one variant has does not hold for the other: left out.
    else if (JSON.stringify(a) === JSON.stringify(b)) merged[key] = a;
  }
  return merged;
}

/** What every answer may carry beside its route's body (answer-budget.ts, route-tool.ts). */
const ANSWER_EXTRAS: Record<string, JsonSchema> = {
  next_cursor: { type: 'string', description: 'Pass as `cursor` for the next page or the rest of this one.' },
  truncated: {
    type: 'object',
    description: 'Present when the answer was cut to its size budget: what was left out and how to get it.',
    properties: {
      reason: { type: 'string' },
      budget_tokens: { type: 'integer' },
      cut: { type: 'array', items: { type: 'string' } },
      items_returned: { type: 'integer' },
      items_available: { type: 'integer' },
    },
    required: ['reason', 'budget_tokens', 'cut'],
  },
  // A dry run answers this alone, and its answer must validate too: clients check structuredContent against it.
  dry_run: {
    type: 'object',
    description: 'A dry run’s answer (`dry_run: true`), instead of data: the tool, its route and what a call costs.',
    properties: {
      tool: { type: 'string' },
      route: { type: 'string' },
      would_cost: { type: 'object', properties: { calls: { type: 'integer' } } },
    },
  },
};

/**
 * A tool's output schema: its variants' answers (one, or `anyOf`), each with `next_cursor` and `truncated`
 * allowed, and the components they use as `$defs`. `fields` may leave any field out, so no object requires any.
 */
export function outputSchema(tool: ToolDefinition, shapes: Map<RouteKey, RouteShape>, document: OpenApiDocument) {
  const answers = [...new Set(tool.variants.map((variant) => variant.route))].map((route) =>
    withExtras(shapes.get(route)!.response),
  );
  const unique = [...new Map(answers.map((answer) => [JSON.stringify(answer), answer])).values()];
  const body: JsonSchema = unique.length === 1 ? unique[0]! : { type: 'object', anyOf: unique };
  const components = (document.components as { schemas: Record<string, JsonSchema> }).schemas;
  const defs = Object.fromEntries([...referencedComponents(body, components)].map((name) => [name, components[name]!]));
  return compactOutput(
    JSON.parse(
      JSON.stringify({ ...body, ...(Object.keys(defs).length ? { $defs: defs } : {}) }).replaceAll(
        '"#/components/schemas/',
        '"#/$defs/',
      ),
    ) as JsonSchema,
    // The extras' own `required` holds: a cut answer always says why.
  );
}

function withExtras(schema: JsonSchema): JsonSchema {
  return { ...schema, properties: { ...(schema.properties as object), ...ANSWER_EXTRAS } };
}

/**
 * The schema with no `required` but the `truncated` note's own, and no descriptions: `tools/list` is read into
 * the model's context, and the fields' meanings are in the `openapi` resource (which has them all) and the docs.
 */
function compactOutput(schema: JsonSchema): JsonSchema {
  const strip = (value: unknown, inTruncated: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => strip(item, inTruncated));
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, item]) => key !== 'description' || typeof item !== 'string')
        .filter(([key, item]) => key !== 'required' || !Array.isArray(item) || inTruncated)
        .map(([key, item]) => [key, key === 'truncated' ? strip(item, true) : strip(item, inTruncated)]),
    );
  };
  return strip(schema, false) as JsonSchema;
}
