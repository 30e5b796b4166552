import { randomUUID } from 'node:crypto';
import type { Database } from '../../subgraphs/platform/database.ts';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { SessionTokens } from './sessions.ts';

/** Dashboard cookies and API session tokens (POST /api/auth/login) share the table, each under its kind. */
export type SessionKind = 'dashboard' | 'api';

/** Looked up when a token does not verify, so a bad token costs the same query as a good one. */
const NO_SESSION = '00000000-0000-0000-0000-000000000000';

export interface SessionAccount {
  sessionId: string;
  accountId: string;
  email: string;
  plan: Plan;
}

/**
 * Sessions that end when the user ends them (docs/security.md "Session tokens"). A token is good while its row in
 * `account_sessions` has not ended and its account is not disabled: every call reads that row (one indexed
 * statement, the account lookup it replaces), so logout, a password change or `admin disable-account` on any
 * process refuses the token on every gateway from its next call. A password change and disabling end the rows
 * in the database (the sessions migration's trigger), whoever makes them.
 */
export interface SessionStore {
  /** Signs in: a new session and its token. */
  start(accountId: string): Promise<{ token: string; expiresAt: Date; sessionId: string }>;
  /** The account behind a token, or undefined: forged, expired, ended, of another kind, or account disabled. */
  read(token: string): Promise<SessionAccount | undefined>;
  /** Ends one session (logout); its token is refused from the next call on. */
  end(sessionId: string): Promise<void>;
}

export function createSessionStore(control: Database, tokens: SessionTokens, kind: SessionKind): SessionStore {
  return {
    async start(accountId) {
      const sessionId = randomUUID();
      const { token, expiresAt } = await tokens.issue({ accountId, sessionId });
      // Expired rows of the account go as a new one comes, so the table holds about the live sessions.
      await control.sql.query(
        `WITH expired AS (
           DELETE FROM account_sessions WHERE account_id = $2::uuid AND expires_at < CURRENT_TIMESTAMP
         )
         INSERT INTO account_sessions (id, account_id, kind, expires_at)
         VALUES ($1::uuid, $2::uuid, $3, CURRENT_TIMESTAMP + make_interval(secs => $4::int))`,
        [sessionId, accountId, kind, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)],
      );
      return { token, expiresAt, sessionId };
    },
    async read(token) {
      const claims = await tokens.verify(token);
      const [row] = await control.sql.query<{ id: string; email: string; plan: string }>(
        `SELECT a.id, a.email, a.plan FROM account_sessions s JOIN accounts a ON a.id = s.account_id
         WHERE s.id = $1::uuid AND s.account_id = $2::uuid AND s.kind = $3
           AND s.ended_at IS NULL AND a.disabled_at IS NULL`,
        [claims?.sessionId ?? NO_SESSION, claims?.accountId ?? NO_SESSION, kind],
      );
      if (!claims || !row || !PLANS.includes(row.plan as Plan)) return undefined;
      return { sessionId: claims.sessionId, accountId: row.id, email: row.email, plan: row.plan as Plan };
    },
    async end(sessionId) {
      await control.sql.query(
        'UPDATE account_sessions SET ended_at = CURRENT_TIMESTAMP WHERE id = $1::uuid AND ended_at IS NULL',
        [sessionId],
      );
    },
  };
}
