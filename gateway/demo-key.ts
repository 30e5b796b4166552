import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../subgraphs/platform/database.ts';
import { createAccount, createApiKey, hashKey } from './auth/api-keys.ts';

const DEMO_EMAIL = 'demo@example.com';

/**
 * The sandbox key `npm start` prints. Keys are stored only as hashes, so the key itself is kept in a file
 * under DATA_DIR (readable by this user only) to print the same key on every start — until its sandbox
 * credits are spent, when the next start prints a fresh one. With PostgreSQL nothing else may have made
 * DATA_DIR yet, so it is created here; gateways starting together may each make a key (the file keeps one).
 */
export async function ensureDemoKey(control: Database, dataDir: string, sandboxCredits: number): Promise<string> {
  const file = join(dataDir, 'demo-key');
  const saved = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (saved) {
    const row = await control.prisma.apiKey.findUnique({ where: { hash: hashKey(saved) } });
    if (row && !row.revokedAt && row.callsUsed < sandboxCredits) return saved;
  }
  const account = await demoAccount(control);
  const { key } = await createApiKey(control, account.id, 'sandbox', 'demo');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/** The demo account, created once: when another process creates it first, the unique email makes this one read it. */
async function demoAccount(control: Database) {
  const find = () => control.prisma.account.findUnique({ where: { email: DEMO_EMAIL } });
  const existing = await find();
  if (existing) return existing;
  try {
    return await createAccount(control, 'institutional', DEMO_EMAIL);
  } catch (error) {
    const created = await find();
    if (created) return created;
    throw error;
  }
}
