import type { Plan, Viewer } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { AccountDisabledError, UnauthorizedError } from '../../subgraphs/platform/errors.ts';
import { hashKey, modeOfKey } from './api-keys.ts';
import type { CredentialCache } from './credential-cache.ts';
import { GRANTS } from './grants.ts';
import type { SessionStore } from './session-store.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The viewer behind `Authorization: Bearer <API key | session token>`. Missing, malformed, unknown,
 * revoked and expired credentials all give the same 401 after the same single indexed lookup, so neither
 * the body nor the timing tells them apart. A valid key found in `cache` skips the lookup (credential-cache.ts
 * keeps valid keys only, so no refusal is ever answered from memory). A valid key of a disabled account is a
 * 403 `account_disabled`: its holder knows the key is real, and learns why it stopped. A session token of a
 * disabled account is a plain 401: disabling ended its session (session-store.ts).
 */
export async function authenticate(
  control: Database,
  sessions: SessionStore,
  header: string | undefined,
  cache?: CredentialCache,
): Promise<Viewer> {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  if (token && !token.startsWith('sk_') && JWT_SHAPE.test(token)) return authenticateSession(sessions, token);
  const hash = hashKey(token ?? '');
  const cached = cache?.get(hash);
  if (cached) return cached;
  const ticket = cache?.ticket() ?? 0;

  // One statement (key and plan together), not Prisma's two: it runs on every request, and the bench's
  // profiles showed the ORM's two round trips among the gateway's largest costs per request.
  const [row] = await control.sql.query<{
    id: string;
    account_id: string;
    mode: string;
    revoked: boolean;
    plan: string;
    disabled: boolean;
  }>(
    `SELECT k.id, k.account_id, k.mode, k.revoked_at IS NOT NULL AS revoked, a.plan,
            a.disabled_at IS NOT NULL AS disabled
     FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.hash = $1`,
    [hash],
  );
  const mode = token ? modeOfKey(token) : undefined;
  if (!token || !row || row.revoked || !mode || row.mode !== mode) throw new UnauthorizedError();
  if (row.disabled) throw new AccountDisabledError();
  // The database a credential reaches comes from the grant table, as does everything else it may do.
  const viewer: Viewer = {
    accountId: row.account_id,
    plan: row.plan as Plan,
    mode: GRANTS[mode === 'live' ? 'live_key' : 'sandbox_key'].data,
    keyId: row.id,
  };
  cache?.set(hash, viewer, ticket);
  return viewer;
}

/** Session tokens act for the account on live data (sandbox calls go through `sk_test_` keys and their credits). */
async function authenticateSession(sessions: SessionStore, token: string): Promise<Viewer> {
  const session = await sessions.read(token);
  if (!session) throw new UnauthorizedError();
  return { accountId: session.accountId, plan: session.plan, mode: GRANTS.session.data };
}
