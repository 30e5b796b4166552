import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { STATUS_BY_CODE } from '../../subgraphs/platform/errors.ts';
import type { ErrorCode } from '../../subgraphs/platform/errors.ts';
import { KEY_ROUTES } from '../auth/account-routes.ts';
import { LOGIN_ROUTE } from '../auth/login-route.ts';
import { USAGE_ROUTES } from '../auth/usage-route.ts';
import { BEARER_CHALLENGE } from '../http/authenticate-challenge.ts';
import { rateLimitHeaders } from '../limits/rate-limit.ts';
import { usageHeaders } from '../limits/usage.ts';
import { marketsRoutes } from '../rest/markets-routes.ts';
import { REPORT_DOWNLOAD } from '../rest/report-download.ts';
import type { RouteDefinition } from '../rest/define-route.ts';
import type { RestRoute } from '../rest/route.ts';
import { verticalsRoutes } from '../rest/verticals-routes.ts';
import { webhookRoutes } from '../rest/webhook-routes.ts';
import { apiSchema } from '../supergraph.ts';
import type { JsonSchema } from './json-schema.ts';
import { ruleSchema } from './argument-rules.ts';
import { referencedComponents } from './component-references.ts';
import { exampleKey, recordedExamples } from './examples.ts';
import { ComponentRegistry } from './selection-schema.ts';
import { describeTableRoute } from './table-route.ts';
import type { RouteDescription } from './table-route.ts';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, JsonSchema>> };

/** Every table route by the tag it is listed under in the reference. */
const TABLES: [tag: string, routes: readonly RestRoute[]][] = [
  ['Verticals', verticalsRoutes],
  ['Markets', marketsRoutes],
  ['Webhooks', webhookRoutes],
];

/** Every route coded by hand: each is registered by the same `defineRoute` definition (rest/define-route.ts). */
const DEFINED: readonly RouteDefinition[] = [
  LOGIN_ROUTE,
  ...Object.values(KEY_ROUTES),
  ...Object.values(USAGE_ROUTES),
  REPORT_DOWNLOAD,
];

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** `/api/webhooks/:id` → `/api/webhooks/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The error codes of each status, from the one table the server answers by (subgraphs/platform/errors.ts). */
function codesByStatus(): Map<number, ErrorCode[]> {
  const codes = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(STATUS_BY_CODE) as [ErrorCode, number][]) {
    codes.set(status, [...(codes.get(status) ?? []), code]);
  }
  return codes;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'A parameter or body field is missing, of the wrong type or out of range; `details` names each one.',
  401: 'No credential, or one that is malformed, unknown, revoked or expired.',
  403: "The plan does not include this, the sandbox key's credits are spent, or a live credential is needed.",
  404: 'Nothing with this id (or not visible to this account).',
  405: 'The path exists with another method.',
  409: 'The change conflicts with the current state; read it again and retry.',
  429: 'Too many requests; `Retry-After` says when to retry.',
  500: 'The service failed; the request id (`x-request-id`) finds it in the logs.',
  503: 'A dependency (the database, the counter store, a subgraph) is unavailable; retry later.',
};

/** The rate-limit headers (`Retry-After` among them) and the usage headers, named by the functions that set them. */
const RATE_LIMIT_HEADERS = Object.keys(rateLimitHeaders({ limit: 0, remaining: 0, reset: 0, retryAfter: 0 }));
const USAGE_HEADERS = Object.keys(
  usageHeaders({
    mode: 'live',
    period: { start: null, end: null },
    calls: 0,
    allowance: 0,
    remaining: 0,
    overageCalls: 0,
    overageCost: 0,
  }),
);

function components(registry: ComponentRegistry) {
  const headers = Object.fromEntries(
    [...RATE_LIMIT_HEADERS, ...USAGE_HEADERS].map((name) => [
      name,
      {
        description: name.startsWith('x-usage')
          ? 'Metered usage in the current period (absent when the counter store is unavailable).'
          : name === 'retry-after'
            ? 'Seconds until a refused request may be retried.'
            : 'The rate limit of this credential (absent when the counter store is unavailable).',
        schema: { type: 'integer' },
      },
    ]),
  );
  const responses = Object.fromEntries(
    [...codesByStatus()].map(([status, codes]) => [
      `Error${status}`,
      {
        description: ERROR_DESCRIPTIONS[status] ?? 'An error.',
        ...(status === 401
          ? { headers: { 'www-authenticate': { schema: { type: 'string', const: BEARER_CHALLENGE } } } }
          : status === 429
            ? { headers: { 'retry-after': { $ref: '#/components/headers/retry-after' } } }
            : {}),
        content: {
          'application/json': {
            schema: {
              allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: codes } } }],
            },
          },
        },
      },
    ]),
  );
  return {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'An API key (`sk_live_…`, or `sk_test_…` for the sandbox data) or a session token from POST /api/auth/login.',
      },
    },
    headers,
    responses,
    schemas: {
      Error: {
        type: 'object',
        description: 'Every error answers with this body.',
        properties: {
          error: { type: 'string', enum: Object.keys(STATUS_BY_CODE) },
          message: { type: 'string' },
          details: { type: 'object', additionalProperties: { type: 'string' } },
          redirect: { type: 'string', description: 'Where to upgrade (on a 403).' },
        },
        required: ['error', 'message'],
        additionalProperties: false,
      },
      ...registry.schemas,
    },
  };
}

/** The error statuses a route can answer, from what it takes and who may call it. */
function errorStatuses(route: {
  public?: boolean;
  method: string;
  hasPathParameters: boolean;
  errors?: number[];
}): number[] {
  const statuses = [
    // A public route with a credential that is not valid answers 401 too.
    400,
    401,
    ...(route.public ? [] : [403]),
    ...(route.hasPathParameters ? [404] : []),
    ...(route.method === 'GET' ? [] : [409]),
    429,
    500,
    503,
    ...(route.errors ?? []),
  ];
  return [...new Set(statuses)].sort((a, b) => a - b);
}

function successHeaders(isPublic: boolean | undefined) {
  const names = RATE_LIMIT_HEADERS.filter((name) => name !== 'retry-after');
  if (!isPublic) names.push(...USAGE_HEADERS);
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function operationObject(
  tag: string,
  route: { method: string; path: string; public?: boolean; errors?: number[] },
  description: Omit<RouteDescription, 'contentType' | 'response'> & { content: Record<string, JsonSchema> },
) {
  const hasPathParameters = description.parameters.some((parameter) => parameter.in === 'path');
  return {
    operationId: description.operationId,
    tags: [tag],
    ...(description.summary ? { summary: description.summary } : {}),
    ...(route.public ? { security: [] } : {}),
    ...(description.parameters.length ? { parameters: description.parameters } : {}),
    ...(description.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: description.body } } } }
      : {}),
    responses: {
      ...Object.fromEntries(
        description.statuses.map((status) => [
          String(status),
          {
            description: status === 201 ? 'Created.' : status === 202 ? 'Accepted.' : 'OK.',
            headers: successHeaders(route.public),
            content: description.content,
          },
        ]),
      ),
      ...Object.fromEntries(
        errorStatuses({ ...route, hasPathParameters }).map((status) => [
          String(status),
          { $ref: `#/components/responses/Error${status}` },
        ]),
      ),
    },
  };
}

function zodParameters(schema: z.ZodObject | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = ruleSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

/** A media type's schema, with its recorded example when there is one. */
function mediaType(schema: JsonSchema, example: unknown) {
  return { schema, ...(example !== undefined ? { example } : {}) };
}

function definedRouteDescription(route: RouteDefinition, examples: Record<string, unknown>) {
  const path = openApiPath(route.path);
  const bodies = 'files' in route.response ? route.response.files : { 'application/json': route.response };
  return {
    operationId: route.operationId,
    summary: route.summary,
    parameters: [...zodParameters(route.params, 'path'), ...zodParameters(route.query, 'query')],
    body: route.body && ruleSchema(route.body),
    statuses: route.statuses ?? [200],
    content: Object.fromEntries(
      Object.entries(bodies).map(([type, schema]) => [
        type,
        mediaType(ruleSchema(schema), examples[exampleKey(route.method, path, type)]),
      ]),
    ),
  };
}

/**
 * The OpenAPI 3.1 document of every REST route, built from the route tables and the API schema the server runs
 * (and, for the few routes coded by hand, the `defineRoute` definitions that register them), so it cannot drift.
 */
export function openApiDocument(): OpenApiDocument {
  const registry = new ComponentRegistry();
  const schema = apiSchema();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const add = (path: string, method: string, operation: JsonSchema) => {
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operation;
  };
  const operationIds = new Set<string>();
  const uniqueId = (id: string, method: string) => {
    const unique = operationIds.has(id) ? `${id}${method[0]}${method.slice(1).toLowerCase()}` : id;
    operationIds.add(unique);
    return unique;
  };
  const examples = recordedExamples();
  for (const [tag, routes] of TABLES) {
    for (const route of routes) {
      const { contentType, response, ...description } = describeTableRoute(route, schema, registry);
      const example = examples[exampleKey(route.method, openApiPath(route.path), contentType)];
      add(
        route.path,
        route.method,
        operationObject(tag, route, {
          ...description,
          operationId: uniqueId(description.operationId, route.method),
          content: { [contentType]: mediaType(response, example) },
        }),
      );
    }
  }
  for (const route of DEFINED) {
    add(route.path, route.method, operationObject(route.tag, route, definedRouteDescription(route, examples)));
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Data Graph API',
      version: VERSION,
      description:
        'Business, real-estate, legal and market-intelligence records. Every route but the public ones takes ' +
        '`Authorization: Bearer <key>`; a sandbox key (`sk_test_…`) reads the sandbox data. The same data is ' +
        'in GraphQL at /graphql.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [...new Set([...TABLES.map(([tag]) => tag), ...DEFINED.map((route) => route.tag)])].map((name) => ({ name })),
    paths,
    components: components(registry),
  };
  return withoutUnusedSchemas(document, registry.numbered);
}

let served: OpenApiDocument | undefined;

/**
 * The document this process serves (GET /openapi.json, the MCP tools and resource), built once on first use: it
 * follows from the route tables and the checked-in examples alone. Callers read it and never change it.
 */
export function servedOpenApiDocument(): OpenApiDocument {
  return (served ??= openApiDocument());
}

/**
 * Drops the components no path reaches: the selection walk names every object type, and `respond` unwraps some
 * (a page object whose nodes become the list), so those names never appear in an answer.
 */
function withoutUnusedSchemas(
  document: OpenApiDocument & { components: { schemas: Record<string, JsonSchema> } },
  numbered: Map<string, string>,
) {
  const schemas = document.components.schemas;
  const used = new Set<string>(['Error', ...referencedComponents(document.paths, schemas)]);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  // `Ticker2` becomes `Ticker` when the first `Ticker` was one of those dropped.
  const renamed: [string, string][] = [];
  for (const name of Object.keys(schemas)) {
    const base = numbered.get(name);
    if (!base || Object.hasOwn(schemas, base)) continue;
    schemas[base] = schemas[name]!;
    delete schemas[name];
    renamed.push([name, base]);
  }
  let text = JSON.stringify(document);
  for (const [name, base] of renamed) {
    text = text.replaceAll(`"#/components/schemas/${name}"`, `"#/components/schemas/${base}"`);
  }
  return JSON.parse(text) as OpenApiDocument;
}
