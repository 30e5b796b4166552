import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { failOpen } from '../limits/fail-open.ts';
import type { Limits } from '../limits/limits.ts';
import { RateLimitedError, takeSlidingWindow } from '../limits/rate-limit.ts';
import { assertAllowedHost } from './host-check.ts';
import type { HostRules } from './host-check.ts';
import { mcpServerFor } from './mcp-server.ts';
import type { McpResources } from './mcp-server.ts';
import type { Toolbox } from './toolbox.ts';

export const MCP_PATH = '/mcp';

/** A JSON-RPC message of tool arguments is small; this bounds what is read before anything runs. */
const MCP_BODY_LIMIT = 256 * 1024;

/**
 * Messages other than tool calls (initialize, lists, resources, prompts) and dry runs cost no credit and take no
 * slot of the plan's limit, but each builds an answer (the OpenAPI resource is 200 kB): per account, this many a minute.
 * An agent sends a handful per session.
 */
export const PROTOCOL_MESSAGE_BUDGET = { max: 300, windowMs: 60_000 } as const;

export interface McpDependencies {
  /** The tools, built on first use. */
  toolbox: () => Toolbox;
  resources: McpResources;
  /** The API's credential check (auth/authenticate.ts): every request to /mcp carries an API key. */
  authenticate: (authorization: string | undefined) => Promise<Viewer>;
  contextFor: (request: FastifyRequest) => RequestContext;
  hostRules: HostRules;
  limits: Limits;
}

/** Counts a message that is no tool call against the account's protocol budget; past it a 429. */
async function takeProtocolMessage(limits: Limits, viewer: Viewer, reply: FastifyReply) {
  const { max, windowMs } = PROTOCOL_MESSAGE_BUDGET;
  const key = `rl:mcp-protocol:${viewer.accountId}`;
  const state = await failOpen('rate_limit', undefined, () =>
    takeSlidingWindow(limits.store, key, max, windowMs, limits.clock()),
  );
  if (state?.retryAfter === undefined) return;
  reply.header('retry-after', String(state.retryAfter));
  throw new RateLimitedError(state);
}

/** A JSON-RPC error without a request id, as the SDK's transport sends its own. */
function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * The Fastify request as the web-standard Request the SDK's transport reads (its body is already parsed). The
 * URL's authority is not the Host header: that was checked by name only, and an allowed name with a port no URL
 * can hold (`localhost:abc`) made the Request constructor throw, a 500.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://localhost${request.url}`, { method: 'POST', headers });
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: each POST is answered on its own (a JSON answer, no session), so a
 * client that keeps or drops `Mcp-Session-Id` works either way, and any gateway behind a balancer can answer.
 * Every POST is authenticated by its API key; each tool call is admitted and metered by the toolbox, so lists,
 * reads of resources and prompts cost nothing. GET (a stream for server messages) and DELETE (ending a session)
 * have nothing to act on here: 405, as the specification allows a server without them.
 */
export function registerMcpRoute(app: FastifyInstance, deps: McpDependencies): void {
  // Host, Origin and the key are checked on the request's arrival, before its body is read, parsed or checked.
  const admitRequest = async (request: FastifyRequest) => {
    assertAllowedHost(request, deps.hostRules);
    request.viewer = await deps.authenticate(request.headers.authorization);
  };
  const options = { bodyLimit: MCP_BODY_LIMIT, config: { selfMetered: true }, onRequest: admitRequest };
  app.post(MCP_PATH, options, async (request, reply) => {
    const viewer = request.viewer!;
    // Batches left the protocol in 2025-06-18; one message per request bounds a request's work to one call.
    if (Array.isArray(request.body)) {
      return jsonRpcError(reply, 400, -32600, 'Send one JSON-RPC message per request: batches are not accepted.');
    }
    // A tool call is admitted and metered by the toolbox, as one API call; a dry run is not, so it is bounded here.
    const message = request.body as { method?: unknown; params?: { arguments?: { dry_run?: unknown } } } | null;
    if (message?.method !== 'tools/call' || message.params?.arguments?.dry_run === true) {
      await takeProtocolMessage(deps.limits, viewer, reply);
    }
    const server = mcpServerFor(deps.toolbox(), deps.resources, () => ({
      viewer,
      context: deps.contextFor(request),
      requestId: request.id,
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      reply.status(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      const text = await response.text();
      return reply.send(text.length > 0 ? text : undefined);
    } finally {
      await server.close();
    }
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      config: { selfMetered: true },
      handler: (_request, reply) =>
        jsonRpcError(
          reply.header('allow', 'POST'),
          405,
          -32000,
          'Method not allowed: this MCP server is stateless; send each message by POST.',
        ),
    });
  }
}
