import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import type { ErrorBody } from '../../subgraphs/platform/errors.ts';
import type { RouteInput } from '../rest/register.ts';
import { fitToBudget, pageListOf } from './answer-budget.ts';
import { encodeCursor } from './cursor.ts';
import type { CallOptions } from './tool-arguments.ts';
import type { ToolDefinition, ToolVariant } from './tool-catalog.ts';
import type { ToolRoute } from './tool-routes.ts';
import { argumentFor, parameterFor } from './tool-schemas.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A route's refusal as a tool reports it: the REST error body, and the headers that came with it (Retry-After). */
export class RouteRefusal extends Error {
  constructor(
    readonly body: ErrorBody,
    readonly headers: Map<string, string>,
  ) {
    super(body.message);
  }
}

/**
 * The tool's arguments as the route's request: path and query values as the text a URL would carry them in (so
 * the route's own coercion and messages apply), body fields as JSON. An argument the chosen route does not take
 * goes where the route looks, which refuses it by name, as REST does.
 */
export function routeInput(tool: ToolDefinition, variant: ToolVariant, route: ToolRoute, args: Json): RouteInput {
  const input: Required<Omit<RouteInput, 'ifNoneMatch'>> = {
    query: {},
    params: {},
    body: route.shape.body ? {} : undefined,
  };
  const problems: Record<string, string> = Object.create(null);
  for (const [argument, value] of Object.entries(args)) {
    if (argument === tool.selector?.name || value === undefined || value === null) continue;
    const parameter = parameterFor(variant, argument);
    if (!route.shape.path.has(parameter) && input.body) {
      (input.body as Json)[parameter] = value;
      continue;
    }
    const target = route.shape.path.has(parameter) ? input.params : input.query;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      target[parameter] = String(value);
    } else problems[argument] = 'must be a string, a number or true or false';
  }
  for (const parameter of route.shape.path.keys()) {
    const argument = argumentFor(variant, parameter);
    if (input.params[parameter] === undefined) problems[argument] ??= 'is required';
  }
  if (Object.keys(problems).length > 0) throw new BadRequestError({ ...problems });
  return input;
}

/** Runs the route; a refusal (its status 400 and up) is thrown as the route's error body. */
export async function runRoute(route: ToolRoute, input: RouteInput, context: RequestContext): Promise<Json> {
  const answer = await route.call(input, context);
  const headers = new Map([...answer.headers].map(([name, value]) => [name.toLowerCase(), value]));
  if (answer.status >= 400) throw new RouteRefusal(answer.body as ErrorBody, headers);
  return route.shape.text ? { html: answer.body } : (answer.body as Json);
}

/** The objects `fields` keeps fields of: the page list's items, else the `{success, data}` envelope's record, else the answer. */
function projected(answer: Json): Json[] {
  const list = pageListOf(answer);
  if (list) return (answer[list] as unknown[]).filter(isObject);
  return isObject(answer.data) ? [answer.data] : [answer];
}

/**
 * Keeps the named fields of each projected object; a name none of them has is a 400 listing those they have. After
 * a write the answer is left whole instead: the write is done, and a refusal would say it was not.
 */
function project(answer: Json, fields: string[], wrote: boolean) {
  const objects = projected(answer);
  const available = new Set(objects.flatMap((object) => Object.keys(object)));
  const unknown = fields.filter((field) => !available.has(field));
  if (objects.length > 0 && unknown.length > 0) {
    if (wrote) return;
    throw new BadRequestError({
      fields: `has no field ${unknown.join(', ')}; the answer's fields are ${[...available].join(', ')}`,
    });
  }
  const wanted = new Set(fields);
  for (const object of objects) for (const key of Object.keys(object)) if (!wanted.has(key)) delete object[key];
}

/**
 * The route's answer made ready for a context window: the items an earlier cut answer already gave left out, the
 * fields projected, the size budget applied (saying what was cut), and `next_cursor` when there is more: the rest
 * of a cut page, else the next page.
 */
export function shapeAnswer(tool: ToolDefinition, body: Json, args: Json, options: CallOptions, wrote = false): Json {
  const answer = structuredClone(body);
  const list = pageListOf(answer);
  if (list && options.skip > 0) answer[list] = (answer[list] as unknown[]).slice(options.skip);
  if (options.fields) project(answer, options.fields, wrote);
  const fitted = fitToBudget(answer, options.budgetTokens, list);
  const result: Json = { ...fitted.answer, ...(fitted.truncated ? { truncated: fitted.truncated } : {}) };
  const page = typeof answer.page === 'number' ? answer.page : undefined;
  const pages = typeof answer.pages === 'number' ? answer.pages : undefined;
  if (fitted.keptItems !== undefined) {
    result.next_cursor = encodeCursor({ tool: tool.name, arguments: args, skip: options.skip + fitted.keptItems });
  } else if (page !== undefined && pages !== undefined && page < pages) {
    result.next_cursor = encodeCursor({ tool: tool.name, arguments: { ...args, page: page + 1 }, skip: 0 });
  }
  return result;
}

/** A refusal's details named by the tool's arguments rather than the route's parameters (`q` → `ticker`). */
export function renameDetails(body: ErrorBody, variant: ToolVariant): ErrorBody {
  if (!body.details || !variant.renamed) return body;
  const details = Object.entries(body.details).map(([name, problem]) => [argumentFor(variant, name), problem]);
  return { ...body, details: Object.fromEntries(details) };
}
