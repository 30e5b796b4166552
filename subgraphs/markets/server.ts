import type { FastifyInstance } from 'fastify';
import type { Database, Mode } from '../platform/database.ts';
import { createSubgraphServer as createServer } from '../platform/subgraph-server.ts';
import { marketsSchema } from './schema.ts';

/** The markets subgraph as its own HTTP service (`npm run start:subgraph -- markets`). */
export function createSubgraphServer(options: {
  databases: Record<Mode, Database>;
  secret: string;
}): Promise<FastifyInstance> {
  return createServer({ ...options, name: 'markets', schema: marketsSchema });
}
