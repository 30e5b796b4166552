import type { FastifyInstance } from 'fastify';
import { LoginBody } from './password-checks.ts';
import type { PasswordChecks } from './password-checks.ts';
import { parseRequestInput } from './request-input.ts';
import type { SessionTokens } from './sessions.ts';

export type { LoginOptions } from './password-checks.ts';

/** POST /api/auth/login (docs/api.md "Authentication", docs/security.md "Credentials, grants and login"). */
export function registerLoginRoute(app: FastifyInstance, deps: { sessions: SessionTokens; passwords: PasswordChecks }) {
  app.post('/api/auth/login', { config: { public: true } }, async (request, reply) => {
    const credentials = parseRequestInput(request, { body: LoginBody }).body;
    const account = await deps.passwords.logIn(credentials, request, reply);
    const { token, expiresAt } = await deps.sessions.issue(account.id);
    return { token, token_type: 'Bearer', expires_at: expiresAt.toISOString(), account };
  });
}
