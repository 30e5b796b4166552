import type { Plan, Viewer } from '../../subgraphs/shared/context.ts';
import type { Database } from '../../subgraphs/shared/database.ts';
import { UnauthorizedError } from '../../subgraphs/shared/errors.ts';
import { hashKey, modeOfKey } from './api-keys.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The viewer behind an `Authorization: Bearer <key>` header. Missing, malformed, unknown and revoked keys
 * all give the same 401, after the same single indexed lookup, so neither the body nor the timing tells
 * them apart.
 */
export async function authenticate(control: Database, header: string | undefined): Promise<Viewer> {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  const row = await control.prisma.apiKey.findUnique({
    where: { hash: hashKey(token ?? '') },
    include: { account: { select: { plan: true } } },
  });
  const mode = token ? modeOfKey(token) : undefined;
  if (!token || !row || row.revokedAt || !mode || row.mode !== mode) throw new UnauthorizedError();
  return { accountId: row.accountId, plan: row.account.plan as Plan, mode, keyId: row.id };
}
