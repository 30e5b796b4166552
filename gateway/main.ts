import { env } from '../subgraphs/platform/config.ts';
import { ensureDemoKey } from './demo-key.ts';
import { ensurePortFree, listenOrExit } from '../subgraphs/platform/process/listen.ts';
import { prepareDatabases } from '../subgraphs/platform/process/prepare-databases.ts';
import { isSeeded, seedDatabase } from '../prisma/seed/index.ts';
import { COMMAND_TOOLS } from './commands/load-tool.ts';
import { createServer } from './server.ts';
import { closeOnSignals } from '../subgraphs/platform/process/shutdown.ts';
import { lockDataDirOrExit, serveAdminCommands } from '../subgraphs/platform/process/single-writer.ts';

/** `npm start`: the whole service in one process on the configured databases (PGlite by default). */
await ensurePortFree(env.PORT, env.HOST);
const lock = lockDataDirOrExit('server');
const databases = await prepareDatabases({ isSeeded, seedDatabase });
const subgraphUrls =
  env.VERTICALS_URL && env.MARKETS_URL ? { verticals: env.VERTICALS_URL, markets: env.MARKETS_URL } : undefined;
const app = await createServer({ databases, subgraphUrls, gatewaySecret: env.GATEWAY_SECRET });
await listenOrExit(app, env.PORT, env.HOST);

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : env.PORT;
const url = `http://localhost:${port}`;
const adminSocket = await serveAdminCommands(lock, databases, COMMAND_TOOLS);
closeOnSignals({ app, databases, adminSocket, lock, graceMs: env.SHUTDOWN_GRACE_MS });
const demoKey = await ensureDemoKey(databases.live, env.dataDir, env.SANDBOX_CREDITS);
process.stdout.write(
  [
    '',
    `  Data graph ready at ${url}`,
    `  GraphQL:   ${url}/graphql`,
    `  REST reference: ${url}/docs (OpenAPI: ${url}/openapi.json)`,
    `  Account:   ${url}/account (keys, usage, webhooks)`,
    `  MCP:       ${url}/mcp (agents; docs/mcp.md)`,
    `  Streams:   ${url}/graphql/stream (SSE), ws://localhost:${port}/graphql (graphql-ws); GET ${url}/api/events`,
    `  Demo key (sandbox, institutional plan): ${demoKey}`,
    '',
    `  curl -H "Authorization: Bearer ${demoKey}" \\`,
    `    "${url}/api/v1/b2b/companies?industry=software&state=CA&min_score=80"`,
    '',
  ].join('\n'),
);
