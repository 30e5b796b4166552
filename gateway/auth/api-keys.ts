import { createHash, randomBytes } from 'node:crypto';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';

export const MODES: readonly Mode[] = ['live', 'sandbox'];

const PREFIX_BY_MODE: Record<Mode, string> = { live: 'sk_live_', sandbox: 'sk_test_' };

/** Keys are 256 random bits, so a plain SHA-256 is enough to store them: there is nothing to brute-force. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function modeOfKey(key: string): Mode | undefined {
  return MODES.find((mode) => key.startsWith(PREFIX_BY_MODE[mode]));
}

export interface CreatedKey {
  key: string;
  id: string;
  accountId: string;
  mode: Mode;
  prefix: string;
}

/** Creates an API key for an account; the key itself is returned once and only its hash is stored. */
export async function createApiKey(
  control: Database,
  accountId: string,
  mode: Mode,
  name = 'default',
): Promise<CreatedKey> {
  const key = `${PREFIX_BY_MODE[mode]}${randomBytes(32).toString('base64url')}`;
  const prefix = key.slice(0, PREFIX_BY_MODE[mode].length + 4);
  const row = await control.prisma.apiKey.create({ data: { accountId, mode, name, prefix, hash: hashKey(key) } });
  return { key, id: row.id, accountId, mode, prefix };
}

export async function createAccount(control: Database, plan: Plan, email?: string) {
  return control.prisma.account.create({
    data: { plan, email: email ?? `account-${randomBytes(6).toString('hex')}@example.com` },
  });
}
