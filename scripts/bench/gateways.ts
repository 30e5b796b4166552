import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../free-port.ts';
import { WORK_DIR, startServer, tsNode } from './processes.ts';
import type { ServerProcess } from './processes.ts';

/** How the bench starts our services: the gateway alone, as a cluster, and the subgraph services. */

export const BENCH_SECRET = 'bench-gateway-secret-0123456789';

export interface SubgraphUrls {
  verticals: string;
  markets: string;
}

/** The environment of a gateway on the bench database, as `npm start` runs in production. */
export function gatewayEnv(url: string, port: number, subgraphs?: SubgraphUrls): Record<string, string> {
  mkdirSync(join(WORK_DIR, 'data'), { recursive: true }); // the gateway writes its demo key there
  return {
    DATABASE_URL: url,
    SANDBOX_DATABASE_URL: url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATA_DIR: join(WORK_DIR, 'data'),
    // Scheme A leaves the institutional plan unlimited: the bench key is not throttled (docs/performance.md).
    RATE_LIMIT_SCHEME: 'A',
    ...(subgraphs
      ? { VERTICALS_URL: subgraphs.verticals, MARKETS_URL: subgraphs.markets, GATEWAY_SECRET: BENCH_SECRET }
      : {}),
  };
}

/** `npm run start:cluster -- --workers N` (scripts/start-cluster.ts): N gateway processes on one port. */
export async function startGatewayCluster(
  name: string,
  workers: number,
  env: (port: number) => Record<string, string>,
  nodeFlags: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name,
    ...tsNode('scripts/start-cluster.ts', ['--workers', String(workers)], nodeFlags),
    env: env(port),
    port,
    readyPath: '/healthz',
    readyLine: /gateway process(es)? ready on port/,
  });
}

/** `npm run start:subgraph -- <name>` (scripts/start-subgraph.ts) on the bench database. */
export async function startSubgraphService(
  subgraph: keyof SubgraphUrls,
  url: string,
  nodeFlags: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const env = gatewayEnv(url, port);
  return startServer({
    name: `service-${subgraph}`,
    ...tsNode('scripts/start-subgraph.ts', [subgraph], nodeFlags),
    env: { ...env, GATEWAY_SECRET: BENCH_SECRET },
    port,
    readyPath: '/healthz',
  });
}

export const graphqlPost = (url: string, query: string, variables: object, key?: string) => ({
  url: `${url}/graphql`,
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
  body: JSON.stringify({ query, variables }),
});
