import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { commandEnvironment, runScript } from '../support/child-process.ts';
import { freePort } from '../../scripts/free-port.ts';

/** `npm run start:cluster` (scripts/start-cluster.ts): N gateway processes of gateway/main.ts on one port. */
const ROOT = new URL('../../', import.meta.url).pathname;

/** The gateway workers a primary has forked (its children running gateway/main.ts). */
function workersOf(primary: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === primary && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gateway/main.ts');
      } catch {
        return false;
      }
    })
    .map(Number);
}

if (TEST_ENGINE !== 'postgres') {
  describe('start:cluster on PGlite', () => {
    it('refuses to start: a PGlite folder belongs to one process', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'data-graph-cluster-'));
      try {
        const { code, stdout, stderr } = await runScript(
          'scripts/start-cluster.ts',
          [],
          commandEnvironment({ DATA_DIR: dataDir }),
        );
        expect(code).toBe(2);
        expect(stdout + stderr).toContain('needs DATABASE_URL and SANDBOX_DATABASE_URL');
        expect(readdirSync(dataDir)).toEqual([]); // nothing opened
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
} else {
  describe('start:cluster: two gateway processes on one port', () => {
    let store: TestDatabases;
    let port: number;
    let child: ReturnType<typeof spawn>;
    let output = '';
    const exited = () =>
      new Promise<number | null>((resolve) =>
        child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
      );

    beforeAll(async () => {
      store = await createTestDatabases({ sandboxScale: 0 });
      port = await freePort();
      const { DATABASE_URL: _l, SANDBOX_DATABASE_URL: _s, REDIS_URL: _r, ...rest } = process.env;
      child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-cluster.ts', '--workers', '2'], {
        cwd: ROOT,
        env: {
          ...rest,
          DATABASE_URL: store.urls.live!,
          SANDBOX_DATABASE_URL: store.urls.sandbox!,
          SANDBOX_SEED_SCALE: '10',
          DATA_DIR: join(store.dataDir, 'data'),
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 150_000;
      while (!output.includes(`2 gateway processes ready on port ${port}`)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`cluster did not start:\n${output}`);
        await sleep(200);
      }
    }, 180_000);
    afterAll(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await exited();
      }
      await store?.drop();
    });

    it('answers on the one port from two worker processes, and replaces a worker that dies', async () => {
      const account = await createAccount(store.databases.live, 'institutional');
      const { key } = await createApiKey(store.databases.live, account.id, 'live');
      const page = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/b2b/companies?per_page=1`, {
          headers: { authorization: `Bearer ${key}` },
        });
      expect((await page()).status).toBe(200);
      const workers = workersOf(child.pid!);
      expect(workers).toHaveLength(2);

      process.kill(workers[0]!, 'SIGKILL');
      const deadline = Date.now() + 120_000;
      let replaced: number[] = [];
      while (Date.now() < deadline) {
        replaced = workersOf(child.pid!);
        if (replaced.length === 2 && !replaced.includes(workers[0]!) && /exited; starting another/.test(output)) break;
        await sleep(300);
      }
      expect(replaced).toHaveLength(2);
      expect(replaced).not.toContain(workers[0]);
      expect((await page()).status).toBe(200);
    }, 150_000);

    it('stops every worker on SIGTERM and exits 0', async () => {
      const workers = workersOf(child.pid!);
      child.kill('SIGTERM');
      expect(await exited()).toBe(0);
      expect(workers.filter((pid) => workersOf(child.pid!).includes(pid) || isRunning(pid))).toEqual([]);
    }, 60_000);
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
