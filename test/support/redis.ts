import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../scripts/free-port.ts';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/**
 * A throwaway Redis server (Debian's `redis-server`, which .ci/run installs) on a free port, without
 * persistence (or on `port`). Fails with a message saying what to install when the binary is missing.
 */
export async function startTestRedis(options: { port?: number } = {}): Promise<TestRedis> {
  if (spawnSync('redis-server', ['--version']).error) {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (CI installs it in .ci/run).');
  }
  // A given port starts Redis again where a stopped one was, as a restarted server would be.
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
