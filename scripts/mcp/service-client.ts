import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The service answered a POST with an HTTP error (401, 403, 5xx) instead of a JSON-RPC message. */
export class ServiceRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the service answered HTTP ${status}`);
  }
}

/**
 * fetch for the SDK's transport that turns a refused POST into a `ServiceRefusal` carrying the body whole: the
 * transport would fold it into an error message. Redirects (3xx) stay the transport's to follow or refuse, and
 * GET (the event stream the stateless service answers 405) the transport's to give up on.
 */
const refusingFetch: FetchLike = async (url, init) => {
  const response = await fetch(url, init);
  if (init?.method === 'POST' && response.status >= 400) {
    throw new ServiceRefusal(response.status, await response.text().catch(() => ''));
  }
  return response;
};

export interface ServiceOptions {
  /** The service's base URL (DATA_GRAPH_URL): its MCP endpoint is `/mcp` under it. */
  url: string;
  /** The API key sent as `Authorization: Bearer` on every POST. */
  key: string;
  /** This program's name and version, as the service's logs see the client. */
  clientInfo: { name: string; version: string };
}

/** The SDK client of the service's /mcp, connected on first use and again after a failed connection. */
export interface ServiceConnection {
  readonly endpoint: URL;
  /** The connected client; `timeout` bounds a connection this call starts (the SDK's default is 60 s). */
  client(options?: { timeout?: number }): Promise<Client>;
  close(): Promise<void>;
}

export function serviceConnection({ url, key, clientInfo }: ServiceOptions): ServiceConnection {
  const endpoint = new URL('mcp', url.endsWith('/') ? url : `${url}/`);
  let connecting: Promise<Client> | undefined;

  const connect = async (timeout?: number) => {
    const client = new Client(clientInfo);
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: refusingFetch,
    });
    await client.connect(transport, { timeout });
    return client;
  };

  return {
    endpoint,
    client({ timeout } = {}) {
      // The service is stateless: once initialized, a client goes on working across the service's restarts; only
      // a connection that never completed is tried again, at the next request.
      connecting ??= connect(timeout).catch((error: unknown) => {
        connecting = undefined;
        throw error;
      });
      return connecting;
    },
    async close() {
      const client = await connecting?.catch(() => undefined);
      await client?.close();
    },
  };
}

/** An error body in the API's shape (`{error, message, …}`, docs/api.md "Errors"). */
export type ErrorBody = { error: string; message: string } & Record<string, unknown>;

function isErrorBody(value: unknown): value is ErrorBody {
  const body = value as Partial<ErrorBody> | null;
  return typeof body?.error === 'string' && typeof body.message === 'string';
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why a request to the service failed, as the API says it: the service's own body when it refused the request
 * (`unauthorized`, `host_not_allowed`, `service_unavailable`), else `service_unavailable` saying what went wrong.
 */
export function serviceErrorBody(error: unknown, endpoint: URL): ErrorBody {
  if (error instanceof ServiceRefusal) {
    const body = parsed(error.body);
    if (isErrorBody(body)) return body;
    return {
      error: 'service_unavailable',
      message: `The data graph service at ${endpoint.href} answered HTTP ${error.status}.`,
    };
  }
  // fetch fails with "fetch failed"; what went wrong (ECONNREFUSED, ENOTFOUND, bad port) is in its cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const reason = [cause?.code, cause?.message, error instanceof Error ? error.message : String(error)].find(
    (text): text is string => typeof text === 'string' && text.length > 0,
  );
  return {
    error: 'service_unavailable',
    message:
      `The data graph service at ${endpoint.href} could not be reached (${reason}). ` +
      'Is it running? DATA_GRAPH_URL says where it is.',
  };
}

/**
 * An error the service answered as a JSON-RPC error (an unknown tool, a prompt's missing argument): the stdio
 * client should get it as the service sent it, not as a failure of this process.
 */
export function isServiceAnswer(error: unknown): error is McpError {
  return (
    error instanceof McpError && error.code !== ErrorCode.RequestTimeout && error.code !== ErrorCode.ConnectionClosed
  );
}

/**
 * The service's JSON-RPC error as this server sends it on: the same code, message and data. The SDK's client
 * prefixes the message it received (`MCP error <code>: `); the server would prefix it again.
 */
export function forwardedError(error: McpError): Error & { code: number; data?: unknown } {
  const message = error.message.replace(/^MCP error -?\d+: /, '');
  return Object.assign(new Error(message), { code: error.code, data: error.data });
}
