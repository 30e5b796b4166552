import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../subgraphs/platform/database.ts';
import type { Limits } from '../limits/limits.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { assertGranted } from './grants.ts';
import { CreateKeyBody, KeyListingSchema, createKey, creationAction, listKeys, revokeKey } from './key-actions.ts';
import { registerLoginRoute } from './login-route.ts';
import { createPasswordChecks } from './password-checks.ts';
import type { LoginOptions, PasswordChecks } from './password-checks.ts';
import type { SessionStore } from './session-store.ts';
import { defineRoute } from '../rest/define-route.ts';

const KeyId = z.strictObject({ id: z.string() });

/** The key routes (docs/api.md "Authentication"): each names its action for the grant table (grants.ts). */
export const KEY_ROUTES = {
  create: defineRoute({
    method: 'POST',
    path: '/api/keys',
    tag: 'Account',
    operationId: 'CreateApiKey',
    summary: 'Create an API key; the key itself is in this answer only.',
    // The grant depends on the mode asked for, read from the raw body before anything is parsed or written.
    access: (request) => assertGranted(request.viewer!, creationAction(request.body)),
    body: CreateKeyBody,
    statuses: [201],
    response: KeyListingSchema.extend({ key: z.string() }),
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/keys',
    tag: 'Account',
    operationId: 'ApiKeys',
    summary: "The account's keys, with their last use.",
    access: (request) => assertGranted(request.viewer!, 'list_keys'),
    response: z.strictObject({ keys: z.array(KeyListingSchema) }),
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/api/keys/:id',
    tag: 'Account',
    operationId: 'RevokeApiKey',
    summary: 'Revoke a key: its next call is a 401.',
    access: (request) => assertGranted(request.viewer!, 'revoke_key'),
    params: KeyId,
    response: KeyListingSchema,
  }),
};

/**
 * POST /api/auth/login and the /api/keys routes (docs/design.md "Accounts, keys, plans"; docs/api.md "Authentication").
 * Each key route checks its grant before it reads its input. Returns the password checks (throttle and
 * hashing bound), which the account dashboard shares.
 */
export function registerAccountRoutes(
  app: FastifyInstance,
  deps: {
    control: Database;
    sessions: SessionStore;
    limits: Limits;
    meter: UsageMeter;
    login?: Partial<LoginOptions>;
  },
): PasswordChecks {
  const { control } = deps;
  const passwords = createPasswordChecks({ control, store: deps.limits.store, options: deps.login });
  registerLoginRoute(app, { sessions: deps.sessions, passwords });

  KEY_ROUTES.create.register(app, async ({ body }, request) => createKey(control, request.viewer!.accountId, body));
  KEY_ROUTES.list.register(app, async (_input, request) => ({
    keys: await listKeys(control, deps.meter, request.viewer!.accountId),
  }));
  KEY_ROUTES.revoke.register(app, async ({ params }, request) =>
    revokeKey(control, app.credentialCache, request.viewer!.accountId, params.id),
  );

  return passwords;
}
