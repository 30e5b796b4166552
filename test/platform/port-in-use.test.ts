import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandEnvironment, runScript } from '../support/child-process.ts';

/** Runs an entry point as `npm start` does, on PGlite under its own DATA_DIR; resolves with its exit and output. */
const run = (entry: string, args: string[], env: Record<string, string>) =>
  runScript(entry, args, commandEnvironment({ LOG_LEVEL: 'info', ...env }));

describe('a port already in use', () => {
  let holder: Server;
  let port: number;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'port-in-use-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen({ port: 0, host: '127.0.0.1' }, resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['the gateway', 'gateway/main.ts', [] as string[], {}],
    ['a subgraph service', 'scripts/start-subgraph.ts', ['markets'], { GATEWAY_SECRET: 'a-gateway-secret-for-tests' }],
  ])(
    'stops %s with one line and exit code 1, before any database is opened',
    async (_name, entry, args, extra) => {
      const result = await run(entry, args, {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(dataDir, entry),
        ...extra,
      });
      expect(result.code).toBe(1);
      expect(
        result.stderr
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('npm warn')),
      ).toEqual([`Port ${port} is already in use; set PORT to another port.`]);
      expect(result.stdout).not.toMatch(/migration|seeding|EADDRINUSE/);
      // The databases were never opened: PGlite would have created its folders.
      expect(existsSync(join(dataDir, entry, 'live'))).toBe(false);
    },
    300_000,
  );
});
