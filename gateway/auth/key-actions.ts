import { z } from 'zod';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { NotFoundError } from '../../subgraphs/platform/errors.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import type { CredentialCache } from './credential-cache.ts';
import { createApiKey } from './api-keys.ts';
import type { Action } from './grants.ts';

/**
 * What /api/keys (bearer) and the account dashboard's /account/api/keys (cookie) do with keys: one implementation,
 * so a key looks and behaves the same whichever way it was made. Callers check the grant (`keyAction`) first.
 */
export const CreateKeyBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').default('default'),
  mode: z.enum(['live', 'sandbox'], 'must be live or sandbox').default('live'),
});

/** The grant a key creation needs, read from the raw body so it is checked before anything is parsed or written. */
export function creationAction(body: unknown): Action {
  return (body as { mode?: unknown } | null)?.mode === 'sandbox' ? 'create_sandbox_key' : 'create_live_key';
}

interface KeyRow {
  id: string;
  name: string;
  mode: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  callsUsed: number;
}

/** A key as listings show it: never the key itself, which only its creation response carries. */
export const KeyListingSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  mode: z.enum(['live', 'sandbox']),
  prefix: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
  calls_used: z.int(),
});

export function keyListing(row: KeyRow): z.input<typeof KeyListingSchema> {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode as Mode,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    calls_used: row.callsUsed,
  };
}

export type KeyListing = ReturnType<typeof keyListing>;

/** Creates a key; the answer is the only one that carries it. */
export async function createKey(control: Database, accountId: string, input: { name: string; mode: Mode }) {
  const created = await createApiKey(control, accountId, input.mode, input.name);
  const row = await control.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
  return { ...keyListing(row), key: created.key };
}

export async function listKeys(control: Database, meter: UsageMeter, accountId: string): Promise<KeyListing[]> {
  // Live keys' calls and last use are counted in memory first (limits/usage-meter.ts): write them, then list.
  await meter.flush();
  const rows = await control.prisma.apiKey.findMany({
    where: { accountId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(keyListing);
}

/**
 * Revokes one of the account's keys (again: the same answer); another account's key is "not found" too. This
 * process forgets its checked keys before answering; other gateways do on the trigger's notice.
 */
export async function revokeKey(
  control: Database,
  credentials: CredentialCache,
  accountId: string,
  id: string,
): Promise<KeyListing> {
  const found = z.uuid().safeParse(id).success
    ? await control.prisma.apiKey.findFirst({ where: { id, accountId } })
    : null;
  if (!found) throw new NotFoundError(`API key ${id}`);
  const row = found.revokedAt
    ? found
    : await control.prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  credentials.clear();
  return keyListing(row);
}
