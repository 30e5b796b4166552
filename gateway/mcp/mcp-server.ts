import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerResult } from '@modelcontextprotocol/sdk/types.js';
import { printSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { z } from 'zod';
import type { OpenApiDocument } from '../openapi/document.ts';
import { PROMPTS, promptMessages } from './prompts.ts';
import type { ToolCaller, Toolbox } from './toolbox.ts';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What the server tells a client at `initialize`, for its model. */
const INSTRUCTIONS =
  'Business, real-estate and legal records, and US market intelligence: congressional and insider trades, ' +
  'SEC-filing signals, tickers, convergence leads, briefings, the yield curve and macro data. Each tool call ' +
  'is one metered API call; `_meta` says what it cost and what is left. Answers stay under a size budget: ' +
  'use `fields` and filters for smaller ones, and `next_cursor` for more.';

/** The documents a client can read whole: the GraphQL SDL (for the `graphql` tool) and the OpenAPI document. */
export interface McpResources {
  schema: GraphQLSchema;
  /** The served document (built once per process, on first use). */
  openApi: () => OpenApiDocument;
}

const RESOURCES = {
  'data-graph://schema.graphql': {
    name: 'graphql_schema',
    title: 'GraphQL schema (SDL)',
    description: 'The API schema the `graphql` tool queries.',
    mimeType: 'application/graphql',
  },
  'data-graph://openapi.json': {
    name: 'openapi',
    title: 'OpenAPI document',
    description: 'The REST API the tools are built on: every route, parameter and answer.',
    mimeType: 'application/json',
  },
} as const;

/**
 * Registers a request handler, refusing a request whose params are not of their type (a `tools/call` whose
 * `arguments` is an array) as -32602 Invalid params. Given the request's own schema, the SDK parses the request
 * before any handler and answers a failed parse with -32603 Internal error, as if the server had broken
 * (modelcontextprotocol/typescript-sdk issue 2284); so it is given the method alone, and the handler parses.
 */
function handle<Schema extends z.ZodObject<{ method: z.ZodLiteral<string> } & z.ZodRawShape>>(
  server: Server,
  schema: Schema,
  handler: (request: z.output<Schema>) => ServerResult | Promise<ServerResult>,
): void {
  server.setRequestHandler(z.looseObject({ method: schema.shape.method }), (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid ${request.method} request: ${z.prettifyError(parsed.error)}`,
      );
    }
    return handler(parsed.data);
  });
}

/**
 * One MCP server for one HTTP request (stateless: the SDK's transport answers a 500 when reused across requests),
 * acting for `caller`. Tools, resources and prompts are built once per gateway; this binds them to the caller.
 */
export function mcpServerFor(toolbox: Toolbox, resources: McpResources, caller: () => ToolCaller): Server {
  const server = new Server(
    { name: 'data-graph', title: 'Data Graph', version: VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  handle(server, ListToolsRequestSchema, () => ({ tools: toolbox.tools }));
  handle(server, CallToolRequestSchema, async (request) => {
    const result = await toolbox.call(request.params.name, request.params.arguments, caller());
    if (!result) throw new McpError(ErrorCode.InvalidParams, `No tool is named ${request.params.name}.`);
    return result;
  });
  handle(server, ListResourcesRequestSchema, () => ({
    resources: Object.entries(RESOURCES).map(([uri, resource]) => ({ uri, ...resource })),
  }));
  handle(server, ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    if (!Object.hasOwn(RESOURCES, uri)) throw new McpError(ErrorCode.InvalidParams, `No resource is at ${uri}.`);
    const resource = RESOURCES[uri as keyof typeof RESOURCES];
    const text =
      resource.name === 'graphql_schema' ? printSchema(resources.schema) : JSON.stringify(resources.openApi());
    return { contents: [{ uri, mimeType: resource.mimeType, text }] };
  });
  handle(server, ListPromptsRequestSchema, () => ({
    prompts: PROMPTS.map(({ messages: _, ...prompt }) => prompt),
  }));
  handle(server, GetPromptRequestSchema, (request) => {
    const messages = promptMessages(request.params.name, request.params.arguments ?? {});
    if (!messages) throw new McpError(ErrorCode.InvalidParams, `No prompt is named ${request.params.name}.`);
    return messages;
  });
  return server;
}
