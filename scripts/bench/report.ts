import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadSettings, Measurement } from './measure.ts';
import type { PgliteResult } from './pglite.ts';
import { ROOT } from './processes.ts';
import type { ScaleOutLine } from './scale-out.ts';

export interface ScaleResult {
  scale: number;
  measuredAt: string;
  conditions: LoadSettings & { loadBefore: number; loadAfter: number; cpus: string; node: string };
  rest: Measurement[];
  layers: Measurement[];
  federated: Measurement[];
  /** The scale-out curve (scale-out.ts) and the connections it was loaded with. */
  scaleOut?: ScaleOutLine[];
  scaleOutConnections?: number;
  /** The same lines on PGlite (pglite.ts). */
  pglite?: PgliteResult;
}

export interface BenchResults {
  scales: Record<string, ScaleResult>;
}

const START = '<!-- bench:start (written by npm run bench; edit outside these markers) -->';
const END = '<!-- bench:end -->';
const P95_TARGET_MS = 50;

const number = (value: number | undefined) => (value === undefined ? '' : value.toLocaleString('en-US'));
const scaleName = (scale: number) => (scale >= 1_000_000 ? `${scale / 1_000_000}M` : `${scale / 1_000}k`);

function cells(line: Measurement): string[] {
  const r = line.result;
  if (!r || line.error) return ['—', '—', '—', '—', `error: ${(line.error ?? '').replaceAll('|', '/').slice(0, 80)}`];
  const note = line.measuredAt ? `measured ${line.measuredAt.slice(0, 16).replace('T', ' ')} UTC, by itself` : '';
  return [number(Math.round(r.rps)), String(r.p50), String(r.p95), String(r.p99), note];
}

function ratio(value: number | undefined, base: number | undefined): string {
  return value && base ? `${(value / base).toFixed(2)}×` : '—';
}

function scaleSection(result: ScaleResult): string {
  const c = result.conditions;
  const lines = [
    `### ${scaleName(result.scale)} records per vertical`,
    '',
    `Measured ${result.measuredAt.slice(0, 16).replace('T', ' ')} UTC on ${c.cpus}, Node ${c.node}; 1-minute load average ${c.loadBefore} before and ${c.loadAfter} after; ` +
      `${c.connections} connections, ${c.warmup} s warm-up, ${c.duration} s measured per line. Latencies in ms.`,
    '',
    '**The same companies page through every layer** (documented example `' +
      'industry=software&state=CA&min_score=80`, 25 records and the total):',
    '',
    '| layer | req/s | p50 | p95 | p99 | p50 ÷ raw SQL | req/s ÷ raw SQL | note |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const sql = result.layers.find((line) => line.name.startsWith('raw SQL'))?.result;
  for (const line of result.layers) {
    const [rps, p50, p95, p99, note] = cells(line);
    lines.push(
      `| ${line.name} | ${rps} | ${p50} | ${p95} | ${p99} | ${ratio(line.result?.p50, sql?.p50)} | ${ratio(line.result?.rps, sql?.rps)} | ${note} |`,
    );
  }
  lines.push('', '**The federated query** (companies with contacts from verticals and signals from markets):', '');
  lines.push(
    '| gateway | in-flight sharing | req/s | p50 | p95 | p99 | req/s ÷ Hive Gateway | subgraph fetches per request | note |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const line of result.federated) {
    const [rps, p50, p95, p99, note] = cells(line);
    // Each line beside Hive Gateway's under the same condition (sharing on or off).
    const hive = result.federated.find(
      (candidate) => candidate.name.startsWith('Hive') && candidate.detail === line.detail,
    )?.result;
    const sharing = line.detail.replace(/^federated query,? ?/, '').replace(/^sharing /, '') || '—';
    lines.push(
      `| ${line.name} | ${sharing} | ${rps} | ${p50} | ${p95} | ${p99} | ${ratio(line.result?.rps, hive?.rps)} | ${line.subgraphFetchesPerRequest ?? ''} | ${note} |`,
    );
  }
  if (result.scaleOut?.length) lines.push('', scaleOutTable(result.scaleOut, result.scaleOutConnections));
  if (result.pglite) lines.push('', pgliteTable(result));
  lines.push('', '**Every list route** (through the gateway, with the bench key):', '');
  lines.push(
    `| route | scenario | total | req/s | p50 | p95 | p99 | p95 < ${P95_TARGET_MS} ms | note |`,
    '|---|---|---:|---:|---:|---:|---:|---|---|',
  );
  for (const line of result.rest) {
    const [rps, p50, p95, p99, note] = cells(line);
    const met = line.result && !line.error ? (line.result.p95 < P95_TARGET_MS ? 'yes' : '**no**') : '—';
    lines.push(
      `| ${line.name} | ${line.detail} | ${number(line.total)} | ${rps} | ${p50} | ${p95} | ${p99} | ${met} | ${note} |`,
    );
  }
  return lines.join('\n');
}

const CPU_GROUPS = ['PostgreSQL', 'gateways', 'subgraph services', 'load generator', 'machine'];

function scaleOutTable(curve: ScaleOutLine[], connections: number | undefined): string {
  const lines = [
    `**Scale-out curve** (gateway processes of \`npm run start:cluster\` on one port, the one PostgreSQL; ${connections ?? '?'} ` +
      'connections, every request from another account; CPU seconds per 1,000 requests by group of processes):',
    '',
    `| gateway processes | subgraphs | line | req/s | p50 | p95 | req/s ÷ 1 process | ${CPU_GROUPS.map((group) => `CPU: ${group}`).join(' | ')} | cores busy | note |`,
    `|---:|---|---|---:|---:|---:|---:|${CPU_GROUPS.map(() => '---:').join('|')}|---:|---|`,
  ];
  for (const line of curve) {
    const [rps, p50, p95, , note] = cells(line);
    const single = curve.find(
      (candidate) =>
        candidate.processes === 1 && candidate.topology === line.topology && candidate.detail === line.detail,
    )?.result;
    const cpu = CPU_GROUPS.map((group) => (line.cpuPerThousand?.[group] ?? '—').toString());
    const busy = line.machineBusy === undefined ? '—' : `${Math.round(line.machineBusy * 100)} %`;
    lines.push(
      `| ${line.processes} | ${line.topology} | ${line.detail} | ${rps} | ${p50} | ${p95} | ${ratio(line.result?.rps, single?.rps)} | ${cpu.join(' | ')} | ${busy} | ${note} |`,
    );
  }
  return lines.join('\n');
}

function pgliteTable(result: ScaleResult): string {
  const pglite = result.pglite!;
  const lines = [
    `**The embedded default** (\`npm start\` without DATABASE_URL: PGlite, one process) beside PostgreSQL; the PGlite ` +
      `folder was seeded with ${number(result.scale)} records per vertical in ${number(pglite.seedSeconds)} s ` +
      `(${pglite.seededAt.slice(0, 10)}${pglite.seedLoadBefore === undefined ? '' : `, load average ${pglite.seedLoadBefore} at its start`}):`,
    '',
    '| line | scenario | PostgreSQL req/s | PostgreSQL p95 | PGlite req/s | PGlite p50 | PGlite p95 | PGlite ÷ PostgreSQL req/s | note |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const line of pglite.lines) {
    const postgres = [...result.layers, ...result.federated].find(
      (candidate) => candidate.name === line.name && candidate.detail === line.detail,
    );
    const [rps, p50, p95, , note] = cells(line);
    const [pgRps, , pgP95] = postgres ? cells(postgres) : ['—', '—', '—'];
    lines.push(
      `| ${line.name} | ${line.detail} | ${pgRps} | ${pgP95} | ${rps} | ${p50} | ${p95} | ${ratio(line.result?.rps, postgres?.result?.rps)} | ${note} |`,
    );
  }
  return lines.join('\n');
}

/** p95 of each REST scenario across the measured scales: how cost grows with the data. */
function scalingCurve(results: ScaleResult[]): string {
  const header = results.map((result) => `p95 @ ${scaleName(result.scale)}`);
  const lines = [
    '### Scaling curve (p95 ms; req/s in brackets)',
    '',
    `| route | scenario | ${header.join(' | ')} |`,
    `|---|---|${header.map(() => '---:').join('|')}|`,
  ];
  const keys = new Map<string, [string, string]>();
  for (const result of results)
    for (const line of [...result.layers, ...result.federated, ...result.rest])
      keys.set(`${line.name}\u0000${line.detail}`, [line.name, line.detail]);
  for (const [key, [name, detail]] of keys) {
    const values = results.map((result) => {
      const line = [...result.layers, ...result.federated, ...result.rest].find(
        (candidate) => `${candidate.name}\u0000${candidate.detail}` === key,
      );
      return line?.result && !line.error ? `${line.result.p95} (${number(Math.round(line.result.rps))})` : '—';
    });
    lines.push(`| ${name} | ${detail} | ${values.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function renderGenerated(results: BenchResults): string {
  const ordered = Object.values(results.scales).sort((a, b) => a.scale - b.scale);
  return [
    START,
    '',
    scalingCurve(ordered),
    '',
    ...ordered.map(scaleSection).flatMap((section) => [section, '']),
    END,
  ].join('\n');
}

/** docs/performance.md with the generated tables replaced between the markers; the prose around them stays. */
export function renderReport(results: BenchResults): string {
  const file = join(ROOT, 'docs/performance.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Performance\n\n${START}\n${END}\n`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start < 0 || end < 0) return `${current.trimEnd()}\n\n${renderGenerated(results)}\n`;
  return `${current.slice(0, start)}${renderGenerated(results)}${current.slice(end + END.length)}`;
}
