import type { FastifyInstance } from 'fastify';
import { env } from '../platform/config.ts';
import type { Database, Mode } from '../platform/database.ts';
import { createSubgraphServer as createServer } from '../platform/subgraph-server.ts';
import { attachVerticalsHttp } from './http.ts';
import type { VerticalsHttpOptions } from './http.ts';
import { verticalsSchema } from './schema.ts';

export interface VerticalsServerOptions extends Partial<Pick<VerticalsHttpOptions, 'dataDir' | 'reportWorker'>> {
  databases: Record<Mode, Database>;
  secret: string;
}

/** The verticals subgraph as its own HTTP service (`npm run start:subgraph -- verticals`), with its report worker and download. */
export function createSubgraphServer(options: VerticalsServerOptions): Promise<FastifyInstance> {
  const { databases, secret, reportWorker } = options;
  const dataDir = options.dataDir ?? env.dataDir;
  return createServer({
    databases,
    secret,
    name: 'verticals',
    schema: verticalsSchema,
    attach: (app, contextFor) => attachVerticalsHttp(app, { databases, dataDir, contextFor, reportWorker }),
  });
}
