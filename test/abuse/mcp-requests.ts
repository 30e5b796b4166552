import { request as httpRequest } from 'node:http';
import type { Exchange } from './responses.ts';

/** What a Streamable HTTP client must accept (the server may answer either). */
export const MCP_ACCEPT = 'application/json, text/event-stream';

/** One JSON-RPC request as the text of a body. */
export const rpc = (method: string, params?: Record<string, unknown>, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

/** A `tools/call` as the text of a body; `args` as given, an object or not. */
export const toolCall = (name: string, args: unknown) => rpc('tools/call', { name, arguments: args });

export interface McpExchange extends Exchange {
  headers: Headers;
  /** The JSON answer, or undefined when there is none (a 202) or it is not JSON. */
  body: any;
}

export interface McpRequest {
  method?: string;
  /** Sent as is; an API key, the JSON Content-Type and MCP's Accept come first unless these replace them. */
  headers?: Record<string, string>;
  key?: string;
  body?: string;
}

/** A request to /mcp over `fetch`, answered as an exchange for the abuse suite's checks. */
export async function sendMcp(url: string, { method = 'POST', headers = {}, key, body }: McpRequest) {
  const response = await fetch(`${url}/mcp`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      accept: MCP_ACCEPT,
      ...headers,
    },
    body,
  });
  return exchange(
    `${method} /mcp ${(body ?? '').slice(0, 300)}`,
    response.status,
    response.headers,
    await response.text(),
  );
}

/**
 * A POST to /mcp with a Host header of our choosing: `fetch` always sends the URL's own Host, so this goes
 * through node:http, which sends the header as given.
 */
export function sendMcpWithHost(url: string, host: string, key: string, body: string): Promise<McpExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        hostname,
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: MCP_ACCEPT,
          'content-length': Buffer.byteLength(body),
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === 'string') headers.set(name, value);
          }
          resolve(exchange(`POST /mcp (Host: ${host})`, incoming.statusCode ?? 0, headers, text));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function exchange(request: string, status: number, headers: Headers, text: string): McpExchange {
  const contentType = headers.get('content-type') ?? '';
  let body: unknown;
  if (contentType.includes('json') && text.length > 0) body = JSON.parse(text);
  return { request, status, contentType, text, headers, body };
}
