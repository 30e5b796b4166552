import type { Plan, Viewer } from '../../subgraphs/shared/context.ts';
import type { Database } from '../../subgraphs/shared/database.ts';
import { UnauthorizedError } from '../../subgraphs/shared/errors.ts';
import { hashKey, modeOfKey } from './api-keys.ts';
import type { SessionTokens } from './sessions.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;
/** Looked up when a session token does not verify, so a bad token costs the same query as a good one. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/**
 * The viewer behind `Authorization: Bearer <API key | session token>`. Missing, malformed, unknown,
 * revoked and expired credentials all give the same 401 after the same single indexed lookup, so neither
 * the body nor the timing tells them apart.
 */
export async function authenticate(
  control: Database,
  sessions: SessionTokens,
  header: string | undefined,
): Promise<Viewer> {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  if (token && !token.startsWith('sk_') && JWT_SHAPE.test(token)) return authenticateSession(control, sessions, token);

  const row = await control.prisma.apiKey.findUnique({
    where: { hash: hashKey(token ?? '') },
    include: { account: { select: { plan: true } } },
  });
  const mode = token ? modeOfKey(token) : undefined;
  if (!token || !row || row.revokedAt || !mode || row.mode !== mode) throw new UnauthorizedError();
  return { accountId: row.accountId, plan: row.account.plan as Plan, mode, keyId: row.id };
}

/** Session tokens act for the account on live data (sandbox calls go through `sk_test_` keys and their credits). */
async function authenticateSession(control: Database, sessions: SessionTokens, token: string): Promise<Viewer> {
  const accountId = await sessions.verify(token);
  const account = await control.prisma.account.findUnique({
    where: { id: accountId ?? NO_ACCOUNT },
    select: { id: true, plan: true },
  });
  if (!accountId || !account) throw new UnauthorizedError();
  return { accountId: account.id, plan: account.plan as Plan, mode: 'live' };
}
