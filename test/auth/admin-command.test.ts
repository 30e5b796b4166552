import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../gateway/auth/api-keys.ts';
import { verifyPassword } from '../../gateway/auth/passwords.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import { commandEnvironment, runScript } from '../support/child-process.ts';

/** The admin command as an operator runs it, against a PGlite data folder of its own. */
describe('npm run admin', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'admin-test-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  // PGlite under the temporary DATA_DIR, whatever database the surrounding run is configured with.
  const run = (...args: string[]) =>
    runScript('scripts/admin.ts', args, commandEnvironment({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  /** A command that must succeed: its output. */
  const admin = async (...args: string[]) => {
    const exit = await run(...args);
    expect(exit.code, exit.stderr).toBe(0);
    return exit;
  };

  it('creates an account and keys, printing one JSON line each, stored as the service reads them', async () => {
    const account = await admin(
      'create-account',
      '--email',
      'Ops@Example.com',
      '--password',
      'long enough secret',
      '--plan',
      'professional',
      '--json',
    );
    const created = JSON.parse(account.stdout) as { account_id: string; email: string; plan: string };
    expect(created).toEqual({ account_id: expect.any(String), email: 'ops@example.com', plan: 'professional' });

    const keyRun = await admin(
      'create-key',
      '--plan',
      'professional',
      '--mode',
      'live',
      '--email',
      'ops@example.com',
      '--json',
    );
    expect(keyRun.stdout.trim().split('\n')).toHaveLength(1);
    const key = JSON.parse(keyRun.stdout) as { key: string; account_id: string; plan: string; mode: string };
    expect(key).toEqual({
      key: expect.stringMatching(/^sk_live_/),
      account_id: created.account_id,
      plan: 'professional',
      mode: 'live',
    });

    const sandbox = JSON.parse((await admin('create-key', '--plan', 'analyst', '--mode', 'sandbox', '--json')).stdout);
    expect(sandbox.key).toMatch(/^sk_test_/);
    expect(sandbox.account_id).not.toBe(created.account_id);

    // Upgrading is the operator's command (no payment provider: /billing says so), by address or account id.
    const upgraded = JSON.parse(
      (await admin('set-plan', '--email', 'OPS@example.com', '--plan', 'institutional', '--json')).stdout,
    );
    expect(upgraded).toEqual({
      account_id: created.account_id,
      email: 'ops@example.com',
      plan: 'institutional',
      previous_plan: 'professional',
    });
    const disabled = JSON.parse((await admin('disable-account', '--email', 'ops@example.com', '--json')).stdout);
    expect(disabled).toEqual({ account_id: created.account_id, email: 'ops@example.com', disabled: 'true' });

    const control = await openDatabase({ mode: 'live', dataDir });
    try {
      const row = await control.prisma.apiKey.findUniqueOrThrow({
        where: { hash: hashKey(key.key) },
        include: { account: true },
      });
      expect(row.accountId).toBe(created.account_id);
      expect(row.mode).toBe('live');
      expect(await verifyPassword('long enough secret', row.account.passwordHash)).toBe(true);
      const other = await control.prisma.apiKey.findUniqueOrThrow({
        where: { hash: hashKey(sandbox.key) },
        include: { account: true },
      });
      expect(other.account.plan).toBe('analyst');
      expect(row.account.plan).toBe('institutional');
      expect(row.account.disabledAt).toBeInstanceOf(Date);
    } finally {
      await control.close();
    }
  }, 300_000);

  it('refuses bad arguments with exit code 2 and a usage message', async () => {
    for (const args of [
      ['create-key', '--plan', 'gold', '--mode', 'live'],
      ['create-key', '--plan', 'analyst'],
      ['set-plan', '--plan', 'analyst'],
      ['set-plan', '--account', 'not-a-uuid', '--plan', 'analyst'],
      ['set-plan', '--email', 'nobody@example.com', '--plan', 'analyst'],
      ['disable-account', '--email', 'nobody@example.com'],
      ['enable-account'],
      ['create-account', '--email', 'a@example.com', '--password', 'short', '--plan', 'analyst'],
      ['frobnicate'],
      ['constructor'],
      ['__proto__'],
      ['toString'],
      ['valueOf'],
      ['hasOwnProperty'],
      [],
    ]) {
      const failure = await run(...args);
      expect(failure.code, args.join(' ')).toBe(2);
      expect(failure.stderr).toContain('usage:');
    }
  }, 120_000);
});
