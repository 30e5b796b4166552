import { spawn } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Runs an entry point (`scripts/admin.ts`, …) with tsx as `npm run` does, without the configured database URLs
 * (so it uses PGlite under `env.DATA_DIR`); resolves with its exit code and output, never rejects.
 */
export function runEntry(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _live, SANDBOX_DATABASE_URL: _sandbox, ...inherited } = process.env;
  const child = spawn('node', ['--import', 'tsx', entry, ...args], { cwd: ROOT, env: { ...inherited, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
