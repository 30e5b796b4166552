import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The SDK's own client over Streamable HTTP to a running service's /mcp, authenticated by `key`. */
export async function connectMcp(url: string, key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'data-graph-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's JSON text content, parsed (what a model reads). */
export function resultText(result: { content?: unknown }): any {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? JSON.parse(first.text!) : undefined;
}
