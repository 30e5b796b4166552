import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const WORK_DIR = join(ROOT, '.bench');

export interface ServerProcess {
  name: string;
  url: string;
  /** The process started (a cluster's primary: its workers are its children; cpu-sample.ts finds them). */
  pid: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Variables of the bench's own environment the server must not see (DATABASE_URL for a PGlite server). */
  unsetEnv?: string[];
  port: number;
  /** Path answered with a 2xx once the server is ready. */
  readyPath: string;
  /** Printed on stdout once the server is ready, when the path alone cannot tell (a cluster: every worker up). */
  readyLine?: RegExp;
}

/**
 * Starts a server in its own process, so it never shares an event loop with the load generator, and waits
 * until it answers. Its output goes to .bench/<name>.log.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  mkdirSync(WORK_DIR, { recursive: true });
  const log = createWriteStream(join(WORK_DIR, `${options.name}.log`));
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of options.unsetEnv ?? []) delete env[name];
  const child: ChildProcess = spawn(options.command, options.args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let printed = '';
  let lineSeen = !options.readyLine;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (lineSeen) return;
    printed = (printed + chunk.toString('utf8')).slice(-4_096);
    lineSeen = options.readyLine!.test(printed);
  });
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`${options.name} exited with ${code}; see .bench/${options.name}.log`)),
    ),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + 180_000;
  try {
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${options.name} did not answer within 180 s`);
      const ready = await Promise.race([
        fetch(`${url}${options.readyPath}`).then(
          (r) => r.ok,
          () => false,
        ),
        exited,
      ]);
      if (ready && lineSeen) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } catch (error) {
    child.kill('SIGTERM'); // a server that never became ready is not left behind
    throw error;
  }
  return {
    name: options.name,
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

/** node with tsx's loader, so .ts entry points run directly; extra node flags (e.g. --cpu-prof) go first. */
export function tsNode(entry: string, args: string[] = [], nodeFlags: string[] = []) {
  return { command: process.execPath, args: [...nodeFlags, '--import', 'tsx', entry, ...args] };
}
