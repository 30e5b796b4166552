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
import { parseRequestInput } from './request-input.ts';
import type { SessionTokens } from './sessions.ts';
import type { HandWrittenRoute } from '../openapi/hand-written-route.ts';

/** The key routes as the OpenAPI document states them: the same schemas the routes parse and answer with. */
export const KEY_ROUTES: HandWrittenRoute[] = [
  {
    method: 'POST',
    path: '/api/keys',
    operationId: 'CreateApiKey',
    summary: 'Create an API key; the key itself is in this answer only.',
    body: CreateKeyBody,
    statuses: [201],
    response: KeyListingSchema.extend({ key: z.string() }),
  },
  {
    method: 'GET',
    path: '/api/keys',
    operationId: 'ApiKeys',
    summary: "The account's keys, with their last use.",
    response: z.strictObject({ keys: z.array(KeyListingSchema) }),
  },
  {
    method: 'DELETE',
    path: '/api/keys/:id',
    operationId: 'RevokeApiKey',
    summary: 'Revoke a key: its next call is a 401.',
    params: z.strictObject({ id: z.string() }),
    response: KeyListingSchema,
  },
];

/**
 * POST /api/auth/login and the /api/keys routes (docs/design.md "Accounts, keys, plans"; docs/api.md "Authentication").
 * Each key route names its action for the grant table (grants.ts) before it reads its input. Returns the
 * password checks (throttle and hashing bound), which the account dashboard shares.
 */
export function registerAccountRoutes(
  app: FastifyInstance,
  deps: {
    control: Database;
    sessions: SessionTokens;
    limits: Limits;
    meter: UsageMeter;
    login?: Partial<LoginOptions>;
  },
): PasswordChecks {
  const { control } = deps;
  const passwords = createPasswordChecks({ control, store: deps.limits.store, options: deps.login });
  registerLoginRoute(app, { sessions: deps.sessions, passwords });

  app.post('/api/keys', async (request, reply) => {
    assertGranted(request.viewer!, creationAction(request.body));
    const input = parseRequestInput(request, { body: CreateKeyBody }).body;
    return reply.status(201).send(await createKey(control, request.viewer!.accountId, input));
  });

  app.get('/api/keys', async (request) => {
    assertGranted(request.viewer!, 'list_keys');
    parseRequestInput(request, {});
    return { keys: await listKeys(control, deps.meter, request.viewer!.accountId) };
  });

  app.delete('/api/keys/:id', async (request) => {
    assertGranted(request.viewer!, 'revoke_key');
    parseRequestInput(request, {});
    const { id } = request.params as { id: string };
    return revokeKey(control, app.credentialCache, request.viewer!.accountId, id);
  });

  return passwords;
}
