import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context.ts';
import { createBenchKeys, databaseName } from './dataset.ts';
import { graphqlPost } from './gateways.ts';
import { measure } from './measure.ts';
import type { Measurement } from './measure.ts';
import { freePort } from '../free-port.ts';
import { ROOT, WORK_DIR, startServer, tsNode } from './processes.ts';
import { FEDERATED_QUERY, LAYER_PAGE, SHARING_ON } from './scenarios.ts';

/** The embedded default measured: the same lines as on PostgreSQL, on a PGlite DATA_DIR of the same scale. */
export interface PgliteResult {
  /** Seconds `npm run seed` took to fill the PGlite live database (when the folder was made, kept between runs). */
  seedSeconds: number;
  seededAt: string;
  /** The machine's 1-minute load average when the fill started (other work slows it). */
  seedLoadBefore?: number;
  /** Named as the PostgreSQL lines of main.ts they stand beside (same name and detail). */
  lines: Measurement[];
}

interface SeedRecord {
  scale: number;
  seconds: number;
  at: string;
  loadBefore: number;
}

/**
 * .bench/pglite-<scale>/ holds the PGlite folders (`live/`, `sandbox/`) as `npm start` keeps them in DATA_DIR,
 * its live database filled by `npm run seed -- --database live` without DATABASE_URL. Kept between runs;
 * `seeded.json` records how long the fill took, and a folder without it (an interrupted fill) is made again.
 */
export function ensurePgliteDataset(scale: number): { dataDir: string; seed: SeedRecord } {
  const dataDir = join(WORK_DIR, `pglite-${databaseName(scale).replace('bench_', '')}`);
  const record = join(dataDir, 'seeded.json');
  if (existsSync(record)) {
    const seed = JSON.parse(readFileSync(record, 'utf8')) as SeedRecord;
    if (seed.scale === scale) return { dataDir, seed };
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.stderr.write(`seeding PGlite in ${dataDir} with ${scale.toLocaleString('en-US')} records per vertical…\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.SANDBOX_DATABASE_URL;
  const loadBefore = Math.round(loadavg()[0]! * 100) / 100;
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/seed.ts', '--scale', String(scale), '--database', 'live'],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env },
  );
  if (result.status !== 0) throw new Error(`seeding PGlite in ${dataDir} failed`);
  const seconds = Math.round((performance.now() - started) / 1000);
  const seed = { scale, seconds, at: new Date().toISOString(), loadBefore };
  writeFileSync(record, `${JSON.stringify(seed)}\n`);
  process.stderr.write(`seeded PGlite in ${seed.seconds} s\n`);
  return { dataDir, seed };
}

/**
 * The companies page (REST, an account per request) and the federated query (one key, as the PostgreSQL line)
 * through `npm start` on PGlite: no DATABASE_URL, one process. The bench keys are made in the folder before the
 * server starts, since a PGlite folder is one process's at a time.
 */
export async function benchPglite(context: BenchContext, keyCount: number): Promise<PgliteResult> {
  const { dataDir, seed } = ensurePgliteDataset(context.scale);
  const [key, ...pool] = await createBenchKeys({ dataDir }, keyCount);
  const auth = { authorization: `Bearer ${key}` };
  const authorizations = pool.map((pooled) => `Bearer ${pooled}`);
  const port = await freePort();
  const server = await startServer({
    name: 'gateway-pglite',
    ...tsNode('gateway/main.ts', [], context.profileFlags('gateway-pglite')),
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      RATE_LIMIT_SCHEME: 'A',
      // The sandbox is not measured: the smallest first-start seed.
      SANDBOX_SEED_SCALE: '10',
    },
    unsetEnv: ['DATABASE_URL', 'SANDBOX_DATABASE_URL', 'VERTICALS_URL', 'MARKETS_URL'],
    port,
    readyPath: '/healthz',
  });
  try {
    const lines = [
      await measure(
        'REST shim, an account per request',
        'GET',
        { url: `${server.url}/api/v1/b2b/companies?${LAYER_PAGE}`, headers: auth, authorizations },
        context.settings,
      ),
      await measure(
        'our gateway, in-process subgraphs',
        SHARING_ON,
        graphqlPost(server.url, FEDERATED_QUERY, {}, key),
        context.settings,
      ),
    ];
    return { seedSeconds: seed.seconds, seededAt: seed.at, seedLoadBefore: seed.loadBefore, lines };
  } finally {
    await server.stop();
  }
}
