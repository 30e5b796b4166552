import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine } from '../command-line.ts';
import { freePort } from '../free-port.ts';
import { WORK_DIR, startServer, tsNode } from './processes.ts';

const USAGE = 'npm run bench:streams -- [--streams 500]';

/**
 * npm run bench:streams -- [--streams 500]
 *
 * The memory of open subscriptions: one gateway on a fresh PGlite DATA_DIR (.bench/streams), its resident set
 * read from /proc before and after `--streams` SSE subscriptions are opened and idle (heartbeats only), with the
 * demo key the server prints. docs/performance.md "Open streams" quotes what it prints.
 */
const { values } = parseCommandLine(USAGE, { options: { streams: { type: 'string', default: '500' } } });
const count = Number(values.streams);
const dataDir = join(WORK_DIR, 'streams');
rmSync(dataDir, { recursive: true, force: true });

const residentMiB = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
};

const METRICS_TOKEN = 'bench-streams-metrics-token';
/** The server's heap in use (prom-client's default metric on GET /metrics), MiB. */
async function heapUsedMiB(url: string) {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]) / 1024 / 1024;
}
/** What settles after start-up (the sandbox seed's garbage) is collected before a reading. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));

const port = await freePort();
const server = await startServer({
  name: 'streams',
  ...tsNode('gateway/main.ts'),
  env: {
    PORT: String(port),
    DATA_DIR: dataDir,
    STREAMS_PER_KEY: String(count + 1),
    METRICS_TOKEN: METRICS_TOKEN,
    LOG_LEVEL: 'warn',
  },
  unsetEnv: ['DATABASE_URL', 'SANDBOX_DATABASE_URL', 'REDIS_URL'],
  port,
  readyPath: '/healthz',
  readyLine: /Demo key \(sandbox, institutional plan\): (\S+)/,
});
try {
  const log = readFileSync(join(WORK_DIR, 'streams.log'), 'utf8');
  const key = /Demo key \(sandbox, institutional plan\): (\S+)/.exec(log)![1]!;
  const open = (): Promise<Response> =>
    fetch(`${server.url}/graphql/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription { events { id type data } }' }),
    });
  // A first stream, so the tail, the schema and the code paths are warm before the baseline.
  const warm = await open();
  await settle();
  const before = { rss: residentMiB(server.pid), heap: await heapUsedMiB(server.url) };
  const started = performance.now();
  const streams: Response[] = [];
  for (let opened = 0; opened < count; opened += 50) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(50, count - opened) }, open))));
  }
  const openSeconds = (performance.now() - started) / 1000;
  const refused = streams.filter((response) => response.status !== 200).length;
  await settle();
  const after = { rss: residentMiB(server.pid), heap: await heapUsedMiB(server.url) };
  console.log(
    JSON.stringify(
      {
        streams: count,
        refused,
        openSeconds: Number(openSeconds.toFixed(2)),
        rssMiB: [before.rss, after.rss].map((mib) => Number(mib.toFixed(1))),
        heapUsedMiB: [before.heap, after.heap].map((mib) => Number(mib.toFixed(1))),
        heapPerStreamKiB: Number((((after.heap - before.heap) * 1024) / count).toFixed(1)),
      },
      null,
      2,
    ),
  );
  for (const response of [warm, ...streams]) await response.body?.cancel();
} finally {
  await server.stop();
}
