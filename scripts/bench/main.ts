import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { marketsRoutes } from '../../gateway/rest/markets-routes.ts';
import { verticalsRoutes } from '../../gateway/rest/verticals-routes.ts';
import { parse } from 'graphql';
import { FIELD_LIMITS } from '../../gateway/limits/policy.ts';
import { parseCommandLine } from '../command-line.ts';
import type { BenchContext } from './context.ts';
import { createBenchKeys, databaseName, ensureDataset } from './dataset.ts';
import { gatewayEnv, graphqlPost } from './gateways.ts';
import type { SubgraphUrls } from './gateways.ts';
import { measure } from './measure.ts';
import type { LoadSettings, Measurement } from './measure.ts';
import { benchPglite } from './pglite.ts';
import { freePort } from '../free-port.ts';
import { ROOT, WORK_DIR, startServer, tsNode } from './processes.ts';
import type { ServerProcess } from './processes.ts';
import { renderGenerated, renderReport } from './report.ts';
import type { BenchResults, ScaleResult } from './report.ts';
import { ALL_PARTS, mergePartialRun } from './merge.ts';
import { benchScaleOut } from './scale-out.ts';
import {
  FEDERATED_QUERY,
  LAYER_PAGE,
  LAYER_VARIABLES,
  REST_SCENARIOS,
  SHARING_OFF,
  SHARING_ON,
  scenarioDetail,
} from './scenarios.ts';

/**
 * npm run bench -- [--scales 100000,1000000] [--duration 10] [--warmup 3] [--connections 10] [--profile]
 *                  [--server postgresql://…] [--only rest,layers,federated,scaleout,pglite] [--routes /api/…,…]
 *                  [--print-only] [--scaleout-connections 32] [--pglite-scales 100000]
 * npm run bench -- --report-only     rewrites docs/performance.md from docs/performance.json
 *
 * For each scale: seeds bench_<scale> on the PostgreSQL server when needed, starts every server in its own
 * process, loads each scenario with autocannon, and merges the numbers into docs/performance.json, from which
 * docs/performance.md is written.
 */
const USAGE = `usage: npm run bench -- [--scales 100000,1000000] [--duration 10] [--warmup 3] [--connections 10] [--profile]
                        [--server postgresql://…] [--only rest,layers,federated,scaleout,pglite] [--routes /api/…,…]
                        [--print-only] [--scaleout-connections 32] [--pglite-scales 100000]
       npm run bench -- --report-only     rewrites docs/performance.md from docs/performance.json`;
const { values } = parseCommandLine(USAGE, {
  options: {
    scales: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    server: {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:55432/postgres',
    },
    only: { type: 'string', default: ALL_PARTS.join(',') },
    // The scale-out lines load 1-4 gateway processes: more connections than one process needs, so 4 are kept busy.
    'scaleout-connections': { type: 'string', default: '32' },
    // Scales the PGlite lines run at (each a PGlite folder under .bench/, seeded once: 100k took minutes).
    'pglite-scales': { type: 'string', default: '100000' },
    // The REST part for these paths only (comma-separated), to profile or compare one route while developing.
    routes: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'report-only': { type: 'boolean', default: false },
    // Measure and print, leave docs/performance.* as they are (a short run while developing is not a result).
    'print-only': { type: 'boolean', default: false },
  },
});
const scales = values.scales.split(',').map(Number);
const settings: LoadSettings = {
  duration: Number(values.duration),
  warmup: Number(values.warmup),
  connections: Number(values.connections),
};
const parts = new Set(values.only.split(','));
const routes = values.routes?.split(',');
const restScenarios = routes ? REST_SCENARIOS.filter((scenario) => routes.includes(scenario.path)) : REST_SCENARIOS;
const SCALE_OUT_CONNECTIONS = Number(values['scaleout-connections']);
const PGLITE_SCALES = values['pglite-scales'].split(',').map(Number);
/** Accounts the PGlite lines send from in turn: more than the connections, so no two requests in flight share. */
const PGLITE_ACCOUNTS = 100;
const RESULTS = join(ROOT, 'docs/performance.json');

const profileFlags = (name: string) =>
  // One folder per server: tsx's loader thread writes a profile too; the largest file is the server's.
  values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(WORK_DIR, 'profiles', name)}`] : [];

/** Our gateway in one process (`npm start`); `extra` adds to its environment (DEDUPLICATE_IN_FLIGHT=off). */
async function startGateway(
  name: string,
  url: string,
  subgraphs?: SubgraphUrls,
  extra: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name,
    ...tsNode('gateway/main.ts', [], profileFlags(name)),
    env: { ...gatewayEnv(url, port, subgraphs), ...extra },
    port,
    readyPath: '/healthz',
  });
}

async function startLayerServer(subgraph: string, url: string): Promise<ServerProcess> {
  const port = await freePort();
  const entry = tsNode(
    'scripts/bench/layer-server.ts',
    ['--subgraph', subgraph, '--port', String(port), '--url', url],
    profileFlags(`subgraph-${subgraph}`),
  );
  return startServer({ name: `subgraph-${subgraph}`, ...entry, port, readyPath: '/health' });
}

/**
 * Hive Gateway's switch for identical subgraph requests in flight (on by default): `deduplicateInflightRequests`
 * of its HTTP executor (@graphql-tools/executor-http), set for every subgraph through `transportEntries` in a
 * gateway configuration file. (Its `inboundInflightRequestDeduplication`, for identical client requests, is off
 * by default and stays off.)
 */
const HIVE_SHARING_OFF_CONFIG = `export const gatewayConfig = {
  transportEntries: { '*': { options: { deduplicateInflightRequests: false } } },
};
`;

/** Hive Gateway over the checked-in supergraph, its subgraph URLs pointed at the bench's subgraph servers. */
async function startHiveGateway(subgraphs: SubgraphUrls, sharing: boolean): Promise<ServerProcess> {
  const port = await freePort();
  let supergraph = readFileSync(join(ROOT, 'schema/supergraph.graphql'), 'utf8');
  for (const [name, url] of Object.entries(subgraphs))
    supergraph = supergraph.replaceAll(`http://${name}.subgraph.invalid/graphql`, url);
  mkdirSync(WORK_DIR, { recursive: true });
  const file = join(WORK_DIR, 'supergraph.graphql');
  writeFileSync(file, supergraph);
  const config = join(WORK_DIR, 'hive-sharing-off.config.mjs');
  writeFileSync(config, HIVE_SHARING_OFF_CONFIG);
  const bin = join(ROOT, 'node_modules/@graphql-hive/gateway/dist/bin.js');
  return startServer({
    name: 'hive-gateway',
    command: process.execPath,
    args: [
      ...profileFlags('hive-gateway'),
      bin,
      'supergraph',
      file,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--fork',
      '1',
      ...(sharing ? [] : ['--config-path', config]),
    ],
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    port,
    readyPath: '/healthcheck',
  });
}

/**
 * Accounts the bench sends the per-account limited fields from in turn (FIELD_LIMITS: search 30 a minute each):
 * 1,500 × 30 = 45,000 calls a minute, above what a limited line (3 s warm-up + 10 s) reaches here. Production
 * limits stay as they are: each account is held to its limit, as any client with many accounts would be.
 */
const LIMITED_FIELD_ACCOUNTS = 1500;

/** Whether a REST route's operation selects a root field limited per account (FIELD_LIMITS). */
function limitedPerAccount(path: string): boolean {
  const route = [...verticalsRoutes, ...marketsRoutes].find(
    (candidate) => candidate.method === 'GET' && candidate.path === path,
  );
  if (!route) return false;
  return parse(route.operation).definitions.some(
    (definition) =>
      definition.kind === 'OperationDefinition' &&
      definition.selectionSet.selections.some(
        (selection) =>
          selection.kind === 'Field' &&
          `${definition.operation === 'query' ? 'Query' : 'Mutation'}.${selection.name.value}` in FIELD_LIMITS,
      ),
  );
}

/** List routes (GET, no path parameter) of the REST tables that no scenario covers. */
function uncoveredRoutes(): string[] {
  const covered = new Set(REST_SCENARIOS.map((scenario) => scenario.path));
  return [...verticalsRoutes, ...marketsRoutes]
    .filter((route) => route.method === 'GET' && !route.path.includes(':') && !covered.has(route.path))
    .map((route) => route.path);
}

async function benchScale(scale: number): Promise<ScaleResult> {
  const url = await ensureDataset(values.server, scale);
  const [key, ...pool] = await createBenchKeys({ url }, 1 + LIMITED_FIELD_ACCOUNTS);
  const auth = { authorization: `Bearer ${key}` };
  const authorizations = pool.map((pooled) => `Bearer ${pooled}`);
  const loadBefore = loadavg()[0]!;
  const started = new Date();
  process.stderr.write(`\n${databaseName(scale)}: load average ${loadBefore.toFixed(2)}\n`);
  const rest: Measurement[] = [];
  const layers: Measurement[] = [];
  const federated: Measurement[] = [];
  const companiesOperation = verticalsRoutes.find((route) => route.path === '/api/v1/b2b/companies')!.operation;

  const verticals = await startLayerServer('verticals', url);
  const markets = await startLayerServer('markets', url);
  const subgraphs: SubgraphUrls = { verticals: `${verticals.url}/graphql`, markets: `${markets.url}/graphql` };
  try {
    if (parts.has('layers')) {
      layers.push(
        await measure(
          'raw SQL (pg)',
          'page + count',
          { url: `${verticals.url}/sql/companies?${LAYER_PAGE}` },
          settings,
        ),
      );
      layers.push(
        await measure(
          'Prisma',
          'findMany + count',
          { url: `${verticals.url}/prisma/companies?${LAYER_PAGE}` },
          settings,
        ),
      );
      layers.push(
        await measure(
          'subgraph alone (graphql-js)',
          'REST operation',
          graphqlPost(verticals.url, companiesOperation, LAYER_VARIABLES),
          settings,
        ),
      );
    }
    const gateway = await startGateway('gateway', url);
    try {
      if (parts.has('layers')) {
        layers.push(
          await measure(
            'gateway, GraphQL',
            'REST operation',
            graphqlPost(gateway.url, companiesOperation, LAYER_VARIABLES, key),
            settings,
          ),
        );
        layers.push(
          await measure(
            'REST shim',
            'GET',
            { url: `${gateway.url}/api/v1/b2b/companies?${LAYER_PAGE}`, headers: auth },
            settings,
          ),
        );
        // The lines above come from one account, so the gateway shares identical requests in flight (raw SQL
        // does not). From a different account each request, nothing is shared: the per-request cost.
        layers.push(
          await measure(
            'gateway, GraphQL, an account per request',
            'REST operation',
            { ...graphqlPost(gateway.url, companiesOperation, LAYER_VARIABLES, key), authorizations },
            settings,
          ),
        );
        layers.push(
          await measure(
            'REST shim, an account per request',
            'GET',
            { url: `${gateway.url}/api/v1/b2b/companies?${LAYER_PAGE}`, headers: auth, authorizations },
            settings,
          ),
        );
      }
      if (parts.has('federated')) {
        federated.push(
          await measure(
            'our gateway, in-process subgraphs',
            SHARING_ON,
            graphqlPost(gateway.url, FEDERATED_QUERY, {}, key),
            settings,
          ),
        );
      }
      if (parts.has('rest')) {
        for (const scenario of restScenarios) {
          const target = {
            url: `${gateway.url}${scenario.path}${scenario.query ? `?${scenario.query}` : ''}`,
            headers: auth,
            ...(limitedPerAccount(scenario.path) ? { authorizations } : {}),
          };
          rest.push(await measure(scenario.path, scenarioDetail(scenario), target, settings));
        }
      }
    } finally {
      await gateway.stop();
    }
    if (parts.has('federated')) {
      const sharingOff = { DEDUPLICATE_IN_FLIGHT: 'off' };
      // Sharing off: the setting, and every request from another account (the key is part of what is shared).
      const unshared = (target: ReturnType<typeof graphqlPost>) => ({ ...target, authorizations });
      const inProcess = await startGateway('gateway-sharing-off', url, undefined, sharingOff);
      try {
        federated.push(
          await measure(
            'our gateway, in-process subgraphs',
            SHARING_OFF,
            unshared(graphqlPost(inProcess.url, FEDERATED_QUERY, {}, key)),
            settings,
          ),
        );
      } finally {
        await inProcess.stop();
      }
      for (const sharing of [true, false]) {
        const remote = await startGateway(
          `gateway-url-mode${sharing ? '' : '-sharing-off'}`,
          url,
          subgraphs,
          sharing ? {} : sharingOff,
        );
        try {
          const target = graphqlPost(remote.url, FEDERATED_QUERY, {}, key);
          federated.push(
            await countingFetches([verticals, markets], () =>
              measure(
                'our gateway, subgraphs over HTTP',
                sharing ? SHARING_ON : SHARING_OFF,
                sharing ? target : unshared(target),
                settings,
              ),
            ),
          );
        } finally {
          await remote.stop();
        }
      }
      for (const sharing of [true, false]) {
        const hive = await startHiveGateway(subgraphs, sharing);
        try {
          // Hive forwards no client header to the subgraphs: the accounts change nothing there, sent for symmetry.
          const target = graphqlPost(hive.url, FEDERATED_QUERY, {});
          federated.push(
            await countingFetches([verticals, markets], () =>
              measure(
                'Hive Gateway, subgraphs over HTTP',
                sharing ? SHARING_ON : SHARING_OFF,
                sharing ? target : unshared(target),
                settings,
              ),
            ),
          );
        } finally {
          await hive.stop();
        }
      }
    }
  } finally {
    await verticals.stop();
    await markets.stop();
  }
  const context: BenchContext = { scale, url, auth, authorizations, settings, profileFlags };
  // After the other parts, with their servers stopped: these start gateways of their own.
  const scaleOut = parts.has('scaleout') ? await benchScaleOut(context, SCALE_OUT_CONNECTIONS) : undefined;
  const pglite =
    parts.has('pglite') && PGLITE_SCALES.includes(scale) ? await benchPglite(context, 1 + PGLITE_ACCOUNTS) : undefined;
  return {
    scale,
    measuredAt: started.toISOString(),
    conditions: {
      loadBefore: round(loadBefore),
      loadAfter: round(loadavg()[0]!),
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
      node: process.version,
      ...settings,
    },
    rest,
    layers,
    federated,
    ...(scaleOut ? { scaleOut, scaleOutConnections: SCALE_OUT_CONNECTIONS } : {}),
    ...(pglite ? { pglite } : {}),
  };
}

/** Subgraph requests the layer servers receive while `run` measures: federated fetches per gateway request. */
async function countingFetches(servers: ServerProcess[], run: () => Promise<Measurement>): Promise<Measurement> {
  const served = async () => {
    const counts = await Promise.all(
      servers.map((server) =>
        fetch(`${server.url}/stats`).then((r) => r.json() as Promise<{ graphqlRequests: number }>),
      ),
    );
    return counts.reduce((sum, count) => sum + count.graphqlRequests, 0);
  };
  const before = await served();
  const line = await run();
  const sent = (line.result?.requests ?? 0) + (line.result?.warmupRequests ?? 0);
  // The sanity request before the load is one more gateway request.
  if (sent > 0) line.subgraphFetchesPerRequest = round(((await served()) - before) / (sent + 1));
  process.stderr.write(`  ${''.padEnd(34)} subgraph fetches per request: ${line.subgraphFetchesPerRequest ?? '—'}\n`);
  return line;
}

function round(value: number) {
  return Math.round(value * 100) / 100;
}

if (values['report-only']) {
  writeFileSync(
    join(ROOT, 'docs/performance.md'),
    renderReport(JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchResults),
  );
  process.exit(0);
}

const uncovered = uncoveredRoutes();
if (uncovered.length > 0)
  process.stderr.write(
    `list routes without a scenario (add them to scripts/bench/scenarios.ts): ${uncovered.join(', ')}\n`,
  );

const results: BenchResults = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : { scales: {} };
// A run of some parts or routes only replaces those lines of a scale's recorded entry (merge.ts).
const partial = routes !== undefined || ALL_PARTS.some((part) => !parts.has(part));
for (const scale of scales) {
  const measured = await benchScale(scale);
  const recorded = results.scales[String(scale)];
  results.scales[String(scale)] =
    partial && recorded ? mergePartialRun(recorded, measured, { parts, routes }) : measured;
  if (values['print-only']) {
    // The tables this run would write, for a look (not a result): .bench/print-only.{json,md}.
    const measured: BenchResults = { scales: { [String(scale)]: results.scales[String(scale)]! } };
    writeFileSync(join(WORK_DIR, 'print-only.json'), `${JSON.stringify(measured, null, 2)}\n`);
    writeFileSync(join(WORK_DIR, 'print-only.md'), `${renderGenerated(measured)}\n`);
    continue;
  }
  // Written after each scale, so an interrupted run keeps what it measured.
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(ROOT, 'docs/performance.md'), renderReport(results));
}
process.stderr.write(
  values['print-only']
    ? '\nprinted only; the tables of the last scale are in .bench/print-only.md\n'
    : '\nwrote docs/performance.json and docs/performance.md\n',
);
