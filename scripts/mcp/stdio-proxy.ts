import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  McpError,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CallToolResult,
  ClientRequest,
  Implementation,
  ServerCapabilities,
  ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { forwardedError, isServiceAnswer, serviceErrorBody } from './service-client.ts';
import type { ErrorBody, ServiceConnection } from './service-client.ts';

/** The capabilities this proxy forwards; the service's own flags for each are passed on as it states them. */
const FORWARDED_CAPABILITIES = ['tools', 'resources', 'prompts'] as const;

/** How long the first connection may take before this server answers its client without the service's details. */
const STARTUP_TIMEOUT_MS = 10_000;

export interface ProxyOptions {
  service: ServiceConnection;
  log: Logger;
  /** What the server says of itself when the service cannot be asked at start. */
  fallbackInfo: Implementation;
}

/**
 * The service could not be reached or refused the request (401, 5xx): for a request other than a tool call, a
 * JSON-RPC error with the API's error body as its data.
 */
class ServiceUnavailable extends McpError {
  constructor(readonly body: ErrorBody) {
    super(ErrorCode.InternalError, body.message, body);
  }
}

/** A result schema the SDK's client parses loosely: what the service sent, unknown fields and `_meta` kept. */
type ResultSchema =
  | typeof ListToolsResultSchema
  | typeof CallToolResultSchema
  | typeof ListResourcesResultSchema
  | typeof ReadResourceResultSchema
  | typeof ListPromptsResultSchema
  | typeof GetPromptResultSchema;

/**
 * An MCP server for a desktop agent over stdio that forwards every request to the service's /mcp. It keeps no
 * state and opens nothing but that connection: the service authenticates the key, admits and meters each tool
 * call and answers it, so limits and credits are the same as over HTTP. Its capabilities and instructions are
 * the service's, asked once at start; when the service cannot be reached then, it offers the three it forwards
 * and asks again at the first request.
 */
export async function createStdioProxy({ service, log, fallbackInfo }: ProxyOptions): Promise<Server> {
  const first = await service
    .client({ timeout: STARTUP_TIMEOUT_MS })
    .catch(
      (error: unknown) => void log.warn(serviceErrorBody(error, service.endpoint), 'service not reachable at start'),
    );
  const announced: ServerCapabilities = first?.getServerCapabilities() ?? { tools: {}, resources: {}, prompts: {} };
  const capabilities = Object.fromEntries(
    FORWARDED_CAPABILITIES.filter((name) => announced[name]).map((name) => [name, announced[name]]),
  );
  const server = new Server(first?.getServerVersion() ?? fallbackInfo, {
    capabilities,
    ...(first?.getInstructions() ? { instructions: first.getInstructions() } : {}),
  });

  /** One request sent on as it came, and its result passed back as the service gave it. */
  const forward = async (request: ClientRequest, schema: ResultSchema, signal: AbortSignal): Promise<ServerResult> => {
    let client: Client;
    try {
      client = await service.client();
    } catch (error) {
      throw unavailable(serviceErrorBody(error, service.endpoint));
    }
    try {
      return (await client.request(request, schema, { signal })) as ServerResult;
    } catch (error) {
      if (isServiceAnswer(error)) throw forwardedError(error);
      throw unavailable(serviceErrorBody(error, service.endpoint));
    }
  };

  const unavailable = (body: ErrorBody) => {
    log.warn(body, 'request not forwarded');
    return new ServiceUnavailable(body);
  };

  if (capabilities.tools) {
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
      forward(request, ListToolsResultSchema, extra.signal),
    );
    // A tool call that cannot reach the service is still a tool's answer, so the model reads why.
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      try {
        return await forward(request, CallToolResultSchema, extra.signal);
      } catch (error) {
        if (error instanceof ServiceUnavailable) return toolError(error.body);
        throw error;
      }
    });
  }
  if (capabilities.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
      forward(request, ListResourcesResultSchema, extra.signal),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      forward(request, ReadResourceResultSchema, extra.signal),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
      forward(request, ListPromptsResultSchema, extra.signal),
    );
    server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
      forward(request, GetPromptResultSchema, extra.signal),
    );
  }
  return server;
}

/** The service's refusal as the service gives a tool's refusals: the body as text and in `_meta.error`. */
function toolError(body: ErrorBody): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta: { error: body } };
}
