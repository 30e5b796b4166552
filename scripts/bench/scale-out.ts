import { cpus } from 'node:os';
import type { BenchContext } from './context.ts';
import { postgresBackends, processTree, startCpuWindow } from './cpu-sample.ts';
import type { ProcessGroups } from './cpu-sample.ts';
import { gatewayEnv, graphqlPost, startGatewayCluster, startSubgraphService } from './gateways.ts';
import type { SubgraphUrls } from './gateways.ts';
import { measure } from './measure.ts';
import type { LoadSettings, Measurement, Target } from './measure.ts';
import type { ServerProcess } from './processes.ts';
import { FEDERATED_QUERY, LAYER_PAGE } from './scenarios.ts';

/** Gateway processes per line of the curve. */
export const SCALE_OUT_PROCESSES = [1, 2, 4];

export type Topology = 'in-process subgraphs' | 'subgraph services';

export interface ScaleOutLine extends Measurement {
  topology: Topology;
  /** Gateway processes (cluster workers) on the one port. */
  processes: number;
}

/**
 * The scale-out curve: the companies page (REST) and the federated query, each request from another account (so
 * nothing is shared in flight and every request is work), through 1, 2 and 4 gateway processes of
 * `npm run start:cluster` on the one bench database; first with the subgraphs in each gateway's process, then
 * with the gateways reaching one verticals and one markets service (`npm run start:subgraph`). Around each
 * measured line the CPU time of PostgreSQL's backends of the bench database, the gateways, the subgraph services
 * and the load generator is read from /proc.
 */
export async function benchScaleOut(context: BenchContext, connections: number): Promise<ScaleOutLine[]> {
  // Every worker of a freshly started cluster warms up on its share of the connections: at least 5 s of it.
  const settings: LoadSettings = { ...context.settings, connections, warmup: Math.max(context.settings.warmup, 5) };
  const lines: ScaleOutLine[] = [];
  for (const processes of SCALE_OUT_PROCESSES) {
    const cluster = await startGatewayCluster(
      `cluster-${processes}`,
      processes,
      (port) => gatewayEnv(context.url, port),
      context.profileFlags(`cluster-${processes}`),
    );
    try {
      lines.push(...(await curvePoint(context, settings, 'in-process subgraphs', processes, cluster, [])));
    } finally {
      await cluster.stop();
    }
  }

  const services = [
    await startSubgraphService('verticals', context.url, context.profileFlags('service-verticals')),
    await startSubgraphService('markets', context.url, context.profileFlags('service-markets')),
  ];
  const urls: SubgraphUrls = { verticals: `${services[0]!.url}/graphql`, markets: `${services[1]!.url}/graphql` };
  try {
    for (const processes of SCALE_OUT_PROCESSES) {
      const cluster = await startGatewayCluster(
        `cluster-${processes}-url`,
        processes,
        (port) => gatewayEnv(context.url, port, urls),
        context.profileFlags(`cluster-${processes}-url`),
      );
      try {
        lines.push(...(await curvePoint(context, settings, 'subgraph services', processes, cluster, services)));
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    for (const service of services) await service.stop();
  }
  return lines;
}

async function curvePoint(
  context: BenchContext,
  settings: LoadSettings,
  topology: Topology,
  processes: number,
  cluster: ServerProcess,
  services: ServerProcess[],
): Promise<ScaleOutLine[]> {
  const groups: ProcessGroups = {
    PostgreSQL: () => postgresBackends(context.url),
    gateways: () => processTree(cluster.pid),
    ...(services.length > 0 ? { 'subgraph services': () => services.flatMap((s) => processTree(s.pid)) } : {}),
  };
  const label = `${processes} gateway${processes > 1 ? 's' : ''}, ${topology}`;
  const companies: Target = {
    url: `${cluster.url}/api/v1/b2b/companies?${LAYER_PAGE}`,
    headers: context.auth,
    authorizations: context.authorizations,
  };
  const federated: Target = {
    ...graphqlPost(cluster.url, FEDERATED_QUERY, {}),
    headers: { 'content-type': 'application/json', ...context.auth },
    authorizations: context.authorizations,
  };
  return [
    await measuredWithCpu(label, 'companies page (REST), an account per request', companies, settings, groups),
    await measuredWithCpu(label, 'federated query, an account per request', federated, settings, groups),
  ].map((line) => ({ ...line, topology, processes }));
}

/** A line measured with the CPU window around its measured seconds (not the warm-up). */
async function measuredWithCpu(
  name: string,
  detail: string,
  target: Target,
  settings: LoadSettings,
  groups: ProcessGroups,
): Promise<Measurement> {
  let window: Awaited<ReturnType<typeof startCpuWindow>> | undefined;
  const line = await measure(
    name,
    detail,
    {
      ...target,
      beforeMeasuring: async () => {
        window = await startCpuWindow(groups);
      },
    },
    settings,
  );
  if (!window || !line.result?.requests) return line;
  const { seconds, wallSeconds } = await window.end();
  const thousands = line.result.requests / 1000;
  line.cpuPerThousand = Object.fromEntries(
    Object.entries(seconds).map(([group, used]) => [group, Math.round((used / thousands) * 100) / 100]),
  );
  line.machineBusy = Math.round((seconds.machine! / (wallSeconds * cpus().length)) * 100) / 100;
  const shares = Object.entries(line.cpuPerThousand)
    .map(([group, value]) => `${group} ${value}`)
    .join(', ');
  process.stderr.write(
    `  ${''.padEnd(34)} CPU s per 1,000 requests: ${shares}; machine busy ${Math.round(line.machineBusy * 100)} %\n`,
  );
  return line;
}
