import { spawn } from 'node:child_process';
import { commandEnvironment } from './child-process.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServiceProcess {
  /** http://127.0.0.1:<port> the process listens on. */
  url: string;
  /** Everything it wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then its exit code once it has exited (SIGKILL and null if it does not within 20 s). */
  stop(): Promise<number | null>;
  /** SIGKILL: the process dies at once, as in a crash or an OOM kill; resolves once it has exited. */
  kill(): Promise<void>;
}

/**
 * One of the service's entry points (`gateway/main.ts`, `scripts/start-subgraph.ts`) as its own OS process
 * under `node --import tsx`, as an operator starts it. Ready when its output matches `ready`, whose first
 * group is the port; start-up failing or exiting rejects with the process's output.
 */
export function startServiceProcess(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 120_000,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: commandEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script} ${args.join(' ')} was not ready in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = ready.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        const kill = async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        };
        resolve({ url: `http://127.0.0.1:${port}`, output: () => output, stop, kill });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}
