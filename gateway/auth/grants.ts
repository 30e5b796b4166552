import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { Mode } from '../../subgraphs/platform/database.ts';
import { ForbiddenError } from '../../subgraphs/platform/errors.ts';

/**
 * THE table of what each kind of credential may do (docs/security.md "Credentials, grants and login" prints it). Routes name
 * their action and call `assertGranted`; no route decides a grant itself. Logging in takes an address and a
 * password, never a credential, so it is not a row here.
 */
export type CredentialKind = 'session' | 'live_key' | 'sandbox_key';

export type Action = 'create_live_key' | 'create_sandbox_key' | 'list_keys' | 'revoke_key' | 'read_usage';

export interface Grant {
  /** The only database the credential reads and writes (records, leads, watchlist, reports). */
  data: Mode;
  actions: ReadonlySet<Action>;
}

const MANAGE_KEYS: readonly Action[] = ['create_live_key', 'create_sandbox_key', 'list_keys', 'revoke_key'];

export const GRANTS: Readonly<Record<CredentialKind, Grant>> = {
  session: { data: 'live', actions: new Set([...MANAGE_KEYS, 'read_usage']) },
  // A live key may manage keys: accounts made by `admin create-key` have no password, so a session is not
  // always possible, and a live key already holds the account's live data and billing.
  live_key: { data: 'live', actions: new Set([...MANAGE_KEYS, 'read_usage']) },
  // A sandbox key is handed out freely (the printed demo key): it must never widen itself into live access
  // or new sandbox credits, nor touch the account's other keys.
  sandbox_key: { data: 'sandbox', actions: new Set(['read_usage']) },
};

const ACTION_NAMES: Record<Action, string> = {
  create_live_key: 'Creating a live API key',
  create_sandbox_key: 'Creating a sandbox API key',
  list_keys: 'Listing API keys',
  revoke_key: 'Revoking an API key',
  read_usage: 'Reading usage',
};

/** Sessions carry no key id; a key's mode is the one stored with it (authenticate.ts checks the prefix agrees). */
export function credentialKindOf(viewer: Pick<Viewer, 'mode' | 'keyId'>): CredentialKind {
  if (viewer.keyId === undefined) return 'session';
  return viewer.mode === 'live' ? 'live_key' : 'sandbox_key';
}

export function isGranted(viewer: Pick<Viewer, 'mode' | 'keyId'>, action: Action): boolean {
  return GRANTS[credentialKindOf(viewer)].actions.has(action);
}

/** Refuses with 403 live_credential_required (redirect /billing) when the credential lacks the grant. */
export function assertGranted(viewer: Pick<Viewer, 'mode' | 'keyId'>, action: Action): void {
  if (isGranted(viewer, action)) return;
  throw new ForbiddenError(
    'live_credential_required',
    `${ACTION_NAMES[action]} needs a session token or a live API key of the account; a sandbox key acts only on sandbox data.`,
  );
}
