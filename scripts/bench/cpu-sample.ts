import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import pg from 'pg';

/**
 * CPU time of groups of processes between two moments, from /proc (Linux): utime + stime of each process, so the
 * bench can say which side (PostgreSQL or Node) spends the machine's cores as processes are added.
 */

/** Clock ticks per second of /proc's times (USER_HZ, 100 on every common Linux). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited
  }
}

/** CPU seconds a process has used so far (user + system; field 14 and 15 of stat, 12 and 13 after the name). */
function cpuSecondsOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS : 0;
}

/** The process and all its descendants (a cluster's workers, tsx's esbuild service). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = Number(statFields(pid)?.[1]);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(pid);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** The PostgreSQL server processes serving one database (the gateways' pooled connections to it). */
export async function postgresBackends(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Busy CPU seconds of the whole machine so far (every core; /proc/stat's first line minus idle and iowait). */
function machineBusySeconds(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return (total - ticks[3]! - ticks[4]!) / TICKS;
}

/** How to find each group's processes at a moment (they may change: pooled connections open under load). */
export type ProcessGroups = Record<string, () => Promise<number[]> | number[]>;

export interface CpuWindow {
  /** CPU seconds per group over the window; `load generator` is this process, `machine` every process. */
  seconds: Record<string, number>;
  wallSeconds: number;
}

/**
 * Starts a window; `end()` returns each group's CPU seconds since. A process first seen at the end started inside
 * the window, so all its time counts; one gone by the end loses its last moments (rare: pools stay open).
 */
export async function startCpuWindow(groups: ProcessGroups): Promise<{ end(): Promise<CpuWindow> }> {
  const before = new Map<string, Map<number, number>>();
  for (const [name, find] of Object.entries(groups))
    before.set(name, new Map((await find()).map((pid) => [pid, cpuSecondsOf(pid)])));
  const self = process.cpuUsage();
  const machine = machineBusySeconds();
  const started = performance.now();
  return {
    async end() {
      const seconds: Record<string, number> = {};
      for (const [name, find] of Object.entries(groups)) {
        const start = before.get(name)!;
        const pids = new Set([...start.keys(), ...(await find())]);
        seconds[name] = [...pids].reduce((sum, pid) => sum + Math.max(0, cpuSecondsOf(pid) - (start.get(pid) ?? 0)), 0);
      }
      const used = process.cpuUsage(self);
      seconds['load generator'] = (used.user + used.system) / 1e6;
      seconds.machine = machineBusySeconds() - machine;
      return { seconds, wallSeconds: (performance.now() - started) / 1000 };
    },
  };
}
