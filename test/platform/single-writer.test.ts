import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFilePath } from '../../subgraphs/platform/process/data-dir-lock.ts';
import { adminSocketPath } from '../../subgraphs/platform/process/admin-protocol.ts';
import { runScript, serviceEnvironment, startChildServer } from '../support/child-process.ts';
import type { ChildServer } from '../support/child-process.ts';
import { createTestDatabases, TEST_ENGINE } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

/**
 * `admin` and `import` beside a running server (`npm start` as a child process). On PGlite the server holds
 * DATA_DIR and does their work; on PostgreSQL they write themselves.
 */
describe(`admin and import while the server runs (${TEST_ENGINE})`, () => {
  let store: TestDatabases;
  let folder: string;
  let server: ChildServer | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await createTestDatabases({ sandboxScale: 100, liveScale: 100 });
    // The server process opens the databases; this one lets go of them.
    await Promise.all(Object.values(store.databases).map((database) => database.close()));
    folder = await mkdtemp(join(tmpdir(), 'single-writer-'));
    env = serviceEnvironment(store);
    server = await startChildServer(env);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await store?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const get = (path: string, key: string) =>
    fetch(`${server!.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('creates a key the running server accepts at once, and imports rows it serves at once, from a relative path', async () => {
    const created = await runScript(
      'scripts/admin.ts',
      ['create-key', '--plan', 'institutional', '--mode', 'live', '--json'],
      env,
    );
    expect(created, created.stderr).toMatchObject({ code: 0 });
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const { key } = JSON.parse(created.stdout) as { key: string };
    expect(key).toMatch(/^sk_live_/);
    expect((await get('/api/v1/usage', key)).status).toBe(200);

    await writeFile(join(folder, 'yields.csv'), 'Date,"1 Mo","3 Mo","10 Yr"\n09/01/2023,5.51,5.53,4.18\n');
    const imported = await runScript('scripts/import.ts', ['treasury-yields', 'yields.csv'], env, folder);
    expect(imported, imported.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(imported.stdout)).toEqual({
      source: 'treasury-yields',
      read: 1,
      inserted: 1,
      updated: 0,
      skipped: 0,
      rejected: 0,
    });
    expect(imported.stderr).toContain('treasury-yields: done in');
    const curve = await get('/api/signals/macro/yield-curve?date=2023-09-01', key);
    expect(curve.status).toBe(200);
    expect(JSON.stringify(await curve.json())).toContain('5.53');
  }, 300_000);

  it("prints a failing command's error and exit code as the command itself would, and the server stays up", async () => {
    const missing = await runScript('scripts/import.ts', ['treasury-yields', 'missing.csv'], env, folder);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `import failed: ENOENT: no such file or directory, open '${join(folder, 'missing.csv')}'`,
    );
    const usage = await runScript('scripts/admin.ts', ['create-key', '--plan', 'gold', '--mode', 'live'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('admin: --plan must be one of analyst, professional, institutional\nusage:');
    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);
  }, 300_000);

  if (TEST_ENGINE === 'pglite') {
    it('refuses a second server on the same DATA_DIR with exit code 2', async () => {
      const second = await startChildServer(env).then(
        (started) => started.stop().then(() => undefined),
        (error: Error) => error.message,
      );
      expect(second).toMatch(/exited before it was ready \(2\)/);
      expect(second).toContain(`${store.dataDir} is in use by a running server (pid `);
      expect(existsSync(adminSocketPath(store.dataDir))).toBe(true);
    }, 300_000);

    it('refuses with exit code 2 and one line, doing nothing, when the server holding DATA_DIR does not answer', async () => {
      const silent = await mkdtemp(join(tmpdir(), 'single-writer-silent-'));
      try {
        // This test process stands for a server that holds the lock but has no socket (still starting, or hung).
        await writeFile(
          lockFilePath(silent),
          JSON.stringify({ pid: process.pid, role: 'server', socket: adminSocketPath(silent) }),
        );
        const silentEnv = { ...env, DATA_DIR: silent };
        for (const [script, args] of [
          ['scripts/admin.ts', ['create-key', '--plan', 'analyst', '--mode', 'live']],
          ['scripts/import.ts', ['treasury-yields', join(folder, 'yields.csv')]],
        ] as const) {
          const refused = await runScript(script, [...args], silentEnv);
          expect(refused.code, refused.stderr).toBe(2);
          expect(refused.stdout).toBe('');
          expect(refused.stderr.trim().split('\n')).toHaveLength(1);
          expect(refused.stderr).toContain(
            `a running server (pid ${process.pid}) holds ${silent} but does not answer on its admin socket`,
          );
        }
        expect(existsSync(join(silent, 'live'))).toBe(false);
      } finally {
        await rm(silent, { recursive: true, force: true });
      }
    }, 300_000);

    it('takes over a stale lock (its process is gone) and writes itself when no server runs', async () => {
      const stopped = await server!.stop();
      expect(stopped.code).toBe(0);
      server = undefined;
      expect(existsSync(lockFilePath(store.dataDir))).toBe(false);
      const gone = spawnSync(process.execPath, ['-e', '']).pid;
      await writeFile(lockFilePath(store.dataDir), JSON.stringify({ pid: gone, role: 'server' }));
      const created = await runScript(
        'scripts/admin.ts',
        ['create-key', '--plan', 'analyst', '--mode', 'sandbox', '--json'],
        env,
      );
      expect(created, created.stderr).toMatchObject({ code: 0 });
      expect(JSON.parse(created.stdout).key).toMatch(/^sk_test_/);
      expect(existsSync(lockFilePath(store.dataDir))).toBe(false);
    }, 300_000);
  } else {
    it('leaves DATA_DIR unlocked on PostgreSQL: several writers are fine there', () => {
      expect(existsSync(lockFilePath(store.dataDir))).toBe(false);
    });
  }
});
