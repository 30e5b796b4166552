import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { serviceConnection } from './mcp/service-client.ts';
import { createStdioProxy } from './mcp/stdio-proxy.ts';

/**
 * `npm run --silent mcp` / `npx data-graph-mcp`: the service's MCP server for desktop agents that start their
 * servers as processes and speak MCP on stdin and stdout. Every request goes on to a running service's /mcp
 * (DATA_GRAPH_URL, with DATA_GRAPH_API_KEY); this process opens no database (docs/mcp.md).
 * stdout carries the protocol alone: logs and the usage error go to stderr.
 */
const USAGE =
  'data-graph-mcp: DATA_GRAPH_API_KEY is not set: give it an API key of the service (sk_live_… or sk_test_…); ' +
  'DATA_GRAPH_URL says where the service runs (default http://127.0.0.1:4000).';

const key = process.env.DATA_GRAPH_API_KEY?.trim();
if (!key) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const url = process.env.DATA_GRAPH_URL?.trim() || 'http://127.0.0.1:4000';
if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
  process.stderr.write(`data-graph-mcp: DATA_GRAPH_URL must be an http:// or https:// URL, not ${url}\n`);
  process.exit(2);
}
const level = process.env.LOG_LEVEL?.trim() || 'info';
if (level !== 'silent' && !(level in pino.levels.values)) {
  process.stderr.write(
    `data-graph-mcp: LOG_LEVEL must be one of ${Object.keys(pino.levels.values).join(', ')}, silent\n`,
  );
  process.exit(2);
}

const log = pino({ level, base: undefined }, pino.destination(2));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const service = serviceConnection({ url, key, clientInfo: { name: 'data-graph-mcp', version } });
const server = await createStdioProxy({ service, log, fallbackInfo: { name: 'data-graph', version } });

// The agent ends this server by closing its stdin, after which the process ends by itself once the requests under
// way are answered, or by a signal, which ends it at once.
const shutdown = () => {
  void Promise.allSettled([server.close(), service.close()]).then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await server.connect(new StdioServerTransport());
log.info({ service: service.endpoint.href }, 'MCP over stdio, forwarding to the service');
