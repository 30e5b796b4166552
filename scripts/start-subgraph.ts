import type { FastifyInstance } from 'fastify';
import { ensurePortFree, listenOrExit } from '../subgraphs/platform/process/listen.ts';
import { prepareDatabases } from '../subgraphs/platform/process/prepare-databases.ts';
import { isSeeded, seedDatabase } from '../prisma/seed/index.ts';
import { COMMAND_TOOLS } from '../gateway/commands/load-tool.ts';
import { closeOnSignals } from '../subgraphs/platform/process/shutdown.ts';
import { lockDataDirOrExit, serveAdminCommands } from '../subgraphs/platform/process/single-writer.ts';
import { env } from '../subgraphs/platform/config.ts';
import type { Database, Mode } from '../subgraphs/platform/database.ts';
import { logger } from '../subgraphs/platform/logger.ts';

/**
 * `npm run start:subgraph -- <verticals|markets>`: one subgraph as its own service on PORT, for a gateway
 * started with VERTICALS_URL, MARKETS_URL and the same GATEWAY_SECRET. The databases are configured as for
 * the gateway (DATABASE_URL and SANDBOX_DATABASE_URL: PGlite's folder can be opened by one process only, and a second
 * process on the same DATA_DIR refuses to start).
 */
const FACTORIES: Record<
  string,
  () => Promise<{
    createSubgraphServer(options: { databases: Record<Mode, Database>; secret: string }): Promise<FastifyInstance>;
  }>
> = {
  verticals: () => import('../subgraphs/verticals/server.ts'),
  markets: () => import('../subgraphs/markets/server.ts'),
};

const name = process.argv[2] ?? '';
const factory = FACTORIES[name];
if (!factory) {
  process.stderr.write(`usage: npm run start:subgraph -- <${Object.keys(FACTORIES).join('|')}>\n`);
  process.exit(2);
}
if (!env.GATEWAY_SECRET) {
  process.stderr.write('GATEWAY_SECRET is required: the subgraph answers only a gateway that sends it.\n');
  process.exit(2);
}

await ensurePortFree(env.PORT, env.HOST);
const lock = lockDataDirOrExit('subgraph');
const databases = await prepareDatabases({ isSeeded, seedDatabase });
const app = await (await factory()).createSubgraphServer({ databases, secret: env.GATEWAY_SECRET });
const address = await listenOrExit(app, env.PORT, env.HOST);
logger.info({ subgraph: name, address }, 'subgraph listening');
const adminSocket = await serveAdminCommands(lock, databases, COMMAND_TOOLS);
closeOnSignals({ app, databases, adminSocket, lock, graceMs: env.SHUTDOWN_GRACE_MS });
process.stdout.write(`${name} subgraph at ${address}/graphql\n`);
