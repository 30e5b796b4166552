import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import type { TestDatabases } from './databases.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;
const require = createRequire(import.meta.url);
/** tsx's loader by absolute path, so a command may run from any working directory. */
const TSX_LOADER = require.resolve('tsx');

/**
 * The environment of a service process on the test's databases: DATA_DIR, plus their URLs on PostgreSQL.
 * NODE_ENV is development, as `npm start` runs: libraries behave differently under "test".
 */
export function serviceEnvironment(store: TestDatabases, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _live, SANDBOX_DATABASE_URL: _sandbox, ...inherited } = process.env;
  return {
    ...inherited,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    DATA_DIR: store.dataDir,
    ...(store.urls.live ? { DATABASE_URL: store.urls.live } : {}),
    ...(store.urls.sandbox ? { SANDBOX_DATABASE_URL: store.urls.sandbox } : {}),
    ...extra,
  };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ChildServer {
  url: string;
  process: ChildProcess;
  exited: Promise<Exit>;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** `npm start` as an operator runs it (node --import tsx gateway/main.ts, PORT=0); resolves once it prints its URL. */
export function startChildServer(env: NodeJS.ProcessEnv): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, 'gateway/main.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return new Promise((resolve, reject) => {
    const onData = () => {
      const port = /ready at http:\/\/localhost:(\d+)/.exec(stdout)?.[1];
      if (!port) return;
      child.stdout!.off('data', onData);
      resolve({
        url: `http://127.0.0.1:${port}`,
        process: child,
        exited,
        stop(signal = 'SIGTERM') {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((exit) =>
      reject(
        new Error(
          `the server exited before it was ready (${exit.code ?? exit.signal}):\n${exit.stdout}\n${exit.stderr}`,
        ),
      ),
    );
  });
}

/**
 * A command (`scripts/admin.ts`, `scripts/import.ts`, `scripts/migrate.ts`, …) run with tsx to its end, from
 * `cwd`, in exactly the environment `env` (see `commandEnvironment`); its exit and output, never rejects.
 */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Exit> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, `${ROOT}${script}`, ...args], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** A live institutional key made by `npm run admin -- create-key`, as an operator makes one for a running service. */
export async function createKeyByCommand(env: NodeJS.ProcessEnv): Promise<string> {
  const created = await runScript(
    'scripts/admin.ts',
    ['create-key', '--plan', 'institutional', '--mode', 'live', '--json'],
    env,
  );
  if (created.code !== 0) throw new Error(`admin create-key failed (${created.code}): ${created.stderr}`);
  return (JSON.parse(created.stdout) as { key: string }).key;
}

/**
 * The test run's environment without the service's own settings (database URLs, Redis, subgraph URLs), plus
 * `extra`: a process gets exactly those it is given, so a command uses PGlite under `extra.DATA_DIR` unless
 * `extra` names a database.
 */
export function commandEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _live,
    SANDBOX_DATABASE_URL: _sandbox,
    REDIS_URL: _redis,
    VERTICALS_URL: _verticals,
    MARKETS_URL: _markets,
    ...inherited
  } = process.env;
  return { ...inherited, ...extra };
}
