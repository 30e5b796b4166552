import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Kind, parse } from 'graphql';
import type { GraphQLFormattedError, OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { errorBody, errorBodyOf } from '../../subgraphs/platform/error-body.ts';
import { ANONYMOUS_PLAN, fillOmitted, planVariants } from './plan-variants.ts';
import type { Execution } from '../execution/execution.ts';
import { sortValue } from './route.ts';
import type { RestRoute } from './route.ts';
import { coercerFor, variableTypes } from './variables.ts';
import type { Coerce } from './variables.ts';

export interface RestDependencies {
  /** Runs each route's operation (gateway/execution). */
  execution: Execution;
  /** Builds the request's context (authentication has already run in the request hooks). */
  contextFor: (request: FastifyRequest) => RequestContext;
}

/** What a REST route answers: the status, the body, the headers set while the operation ran, the content type. */
export interface RouteAnswer {
  status: number;
  body: unknown;
  headers: Iterable<[string, string]>;
  contentType?: string;
}

/** A request to one route as any channel reads it: query-string values, path values and the JSON body. */
export interface RouteInput {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body?: unknown;
  /** The request's `If-None-Match`, for a route with `etag`. */
  ifNoneMatch?: string;
}

/** Runs one route for a caller; refusals found before the operation runs (a bad parameter, a 404) are thrown. */
export type RouteCall = (input: RouteInput, context: RequestContext) => Promise<RouteAnswer>;

/**
 * One route's call, prepared once: parameters become variables, the operation runs through the execution seam,
 * data becomes the documented body. The REST shim and the MCP tools (gateway/mcp) both call routes this way, so
 * a tool's answers and errors are the route's.
 */
export function routeCall(route: RestRoute, execution: Execution): RouteCall {
  const document = parse(route.operation);
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`${route.method} ${route.path}: the operation has no definition`);
  const variants = route.omitFieldsAbovePlan ? planVariants(execution.schema, document) : undefined;
  const types = variableTypes(execution.schema, operation);
  const coercers = new Map<string, Coerce>();
  for (const variable of [...Object.values(route.query ?? {}), ...Object.values(route.params ?? {})]) {
    const type = types.get(variable);
    if (!type) throw new Error(`${route.method} ${route.path}: the operation declares no $${variable}`);
    coercers.set(variable, coercerFor(type));
  }
  // Errors name the parameters as the client sent them, not the GraphQL arguments behind them.
  const parameterOf = new Map(
    [...Object.entries(route.query ?? {}), ...Object.entries(route.params ?? {})].map(([name, variable]) => [
      variable,
      name,
    ]),
  );

  return async (input, contextValue) => {
    // Query string, path and body are read together, so one 400 names the problems of all three. Null
    // prototype: a parameter named `__proto__` is a key like any other.
    const problems: Record<string, string> = Object.create(null);
    const variables = {
      ...readParameters(input.query, route.query ?? {}, coercers, 'query', problems),
      ...readParameters(input.params, route.params ?? {}, coercers, 'path', problems),
      ...collectProblems(problems, () => (route.body ? route.body(readBody(input.body)) : {})),
    };
    const variant = variants?.get(contextValue.viewer?.plan ?? ANONYMOUS_PLAN);
    const run = async (variables: Record<string, unknown>) => {
      const request = variant
        ? { query: variant.operation, variables }
        : { query: route.operation, document, variables };
      const { result, headers } = await execution.execute(request, contextValue);
      return { ...result, headers };
    };
    if (Object.keys(problems).length > 0) {
      // Ranges and formats are the resolver's to check: a read runs without the parameters refused here, so the
      // same answer names its problems too. A write never runs with a refused parameter.
      if (operation.operation === 'query') addResolverProblems(problems, (await run(variables)).errors, parameterOf);
      throw new BadRequestError({ ...problems });
    }
    const { data, errors, headers } = await run(variables);
    // Headers set while the operation ran (a field's own rate limit sets Retry-After) belong to the answer.
    if (errors?.length) return { ...errorAnswer(errors[0] as GraphQLFormattedError, parameterOf), headers };
    const result = data as Record<string, unknown>;
    if (variant) fillOmitted(result, variant.omitted);
    const status = route.createdWhen?.(result) ? 201 : (route.status ?? 200);
    const body = route.respond(result);
    const answerHeaders: [string, string][] = [...headers, ...Object.entries(route.headers ?? {})];
    if (route.etag) {
      const tag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
      answerHeaders.push(['etag', tag]);
      if (input.ifNoneMatch === tag) return { status: 304, body: undefined, headers: answerHeaders };
    }
    return { status, body, headers: answerHeaders, contentType: route.contentType };
  };
}

/** Registers each route of a table on `app`, each answering with its `routeCall`. */
export function registerRestRoutes(app: FastifyInstance, routes: readonly RestRoute[], deps: RestDependencies) {
  for (const route of routes) {
    const call = routeCall(route, deps.execution);
    app.route({
      method: route.method,
      url: route.path,
      config: { public: route.public ?? false },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const input = {
          query: request.query as Record<string, unknown>,
          params: request.params as Record<string, unknown>,
          body: request.body,
          ifNoneMatch: request.headers['if-none-match'],
        };
        const answer = await call(input, deps.contextFor(request));
        for (const [name, value] of answer.headers) reply.header(name, value);
        if (answer.contentType) reply.type(answer.contentType);
        return reply.status(answer.status).send(answer.body);
      },
    });
  }
}

/** The variables `read` returns, or none when it refuses the body: its problems are added to `problems`. */
function collectProblems(problems: Record<string, string>, read: () => Record<string, unknown>) {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof BadRequestError && error.details)) throw error;
    for (const [name, problem] of Object.entries(error.details)) problems[name] ??= problem;
    return {};
  }
}

/** The resolver's `invalid_parameter` details, named as the client sent them, beside the gateway's own. */
function addResolverProblems(
  problems: Record<string, string>,
  errors: readonly GraphQLFormattedError[] | undefined,
  parameterOf: Map<string, string>,
) {
  const [first] = errors ?? [];
  const { status, body } = first ? errorBodyOf(first) : { status: 200, body: undefined };
  if (status !== 400 || !body?.details) return;
  for (const [argument, problem] of Object.entries(body.details)) problems[restName(argument, parameterOf)] ??= problem;
}

/** The variables of the parameters that have the right type; the others' problems are added to `details`. */
function readParameters(
  source: Record<string, unknown>,
  mapping: Record<string, string>,
  coercers: Map<string, Coerce>,
  where: 'query' | 'path',
  details: Record<string, string>,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(source ?? {})) {
    // Own members only: `constructor` or `__proto__` must not find Object.prototype's.
    const variable = Object.hasOwn(mapping, name) ? mapping[name] : undefined;
    if (!variable) {
      details[name] = 'is not a parameter of this endpoint';
      continue;
    }
    if (typeof raw !== 'string') {
      details[name] = 'must be given once';
      continue;
    }
    const value = where === 'query' && name === 'sort' ? sortValue(raw) : raw;
    const coerced = coercers.get(variable)!(value);
    if ('error' in coerced) details[name] = name === 'sort' ? sortError(coerced.error) : coerced.error;
    else variables[variable] = coerced.value;
  }
  return variables;
}

/** Restates the sort enum's values the way the query string spells them: `ai_score` or `-ai_score`. */
function sortError(enumError: string): string {
  const fields = [...enumError.matchAll(/([A-Z0-9_]+)_ASC\b/g)].map((match) => match[1]!.toLowerCase());
  return `must be one of ${fields.join(', ')}, with a leading - for descending order`;
}

function readBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError({ body: 'must be a JSON object' });
  }
  return body as Record<string, unknown>;
}

/**
 * The name a client used for an argument: its query or path parameter, else the documented snake_case body
 * field (`input.recordId` → `record_id`).
 */
function restName(argument: string, parameterOf: Map<string, string>): string {
  const parameter = parameterOf.get(argument);
  if (parameter) return parameter;
  return argument.replace(/^input\./, '').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A GraphQL error as the route's error answer, its details named as the client sent them. */
function errorAnswer(error: GraphQLFormattedError, parameterOf: Map<string, string>) {
  const { status, body } = errorBodyOf(error);
  if (!body.details) return { status, body };
  const details = Object.fromEntries(
    Object.entries(body.details).map(([argument, problem]) => [restName(argument, parameterOf), problem]),
  );
  return { status, body: errorBody(new BadRequestError(details)) };
}
