import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandEnvironment, runScript } from '../support/child-process.ts';

const COMMANDS = [
  ['admin', 'scripts/admin.ts'],
  ['import', 'scripts/import.ts'],
  ['seed', 'scripts/seed.ts'],
  ['migrate', 'scripts/migrate.ts'],
  ['bench', 'scripts/bench/main.ts'],
  ['start:cluster', 'scripts/start-cluster.ts'],
] as const;

const run = (entry: string, args: string[], dataDir: string) =>
  runScript(entry, args, commandEnvironment({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));

describe('every command answers --help and refuses unknown options', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'commands-help-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it.each(COMMANDS)(
    '%s --help prints its usage and exits 0; --no-such-option prints it and exits 2; no database is opened',
    async (_name, entry) => {
      const [help, short, unknown] = await Promise.all([
        run(entry, ['--help'], join(dataDir, entry)),
        run(entry, ['-h'], join(dataDir, entry)),
        run(entry, ['--no-such-option'], join(dataDir, entry)),
      ]);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^usage:/);
      expect(short.code).toBe(0);
      expect(short.stdout).toBe(help.stdout);
      expect(unknown.code, unknown.stderr).toBe(2);
      expect(unknown.stderr).toContain("Unknown option '--no-such-option'");
      expect(unknown.stderr).toContain(help.stdout.trim());
      expect(existsSync(join(dataDir, entry))).toBe(false);
    },
    300_000,
  );
});
