import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LoginBody } from './password-checks.ts';
import type { PasswordChecks } from './password-checks.ts';
import type { SessionStore } from './session-store.ts';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { defineRoute } from '../rest/define-route.ts';

const LoginAnswer = z.strictObject({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.iso.datetime(),
  account: z.strictObject({ id: z.uuid(), email: z.email(), plan: z.enum(PLANS) }),
});

/** POST /api/auth/login (docs/api.md "Authentication", docs/security.md "Credentials, grants and login"). */
export const LOGIN_ROUTE = defineRoute({
  method: 'POST',
  path: '/api/auth/login',
  tag: 'Account',
  operationId: 'Login',
  summary: 'A session token for an e-mail address and password; present it as a bearer credential.',
  public: true,
  body: LoginBody,
  response: LoginAnswer,
});

export type { LoginOptions } from './password-checks.ts';

export function registerLoginRoute(app: FastifyInstance, deps: { sessions: SessionStore; passwords: PasswordChecks }) {
  LOGIN_ROUTE.register(app, async ({ body: credentials }, request, reply) => {
    const account = await deps.passwords.logIn(credentials, request, reply);
    const { token, expiresAt } = await deps.sessions.start(account.id);
    return {
      token,
      token_type: 'Bearer',
      expires_at: expiresAt.toISOString(),
      account: { ...account, plan: account.plan as Plan },
    } satisfies z.input<typeof LoginAnswer>;
  });
}
