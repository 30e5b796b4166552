import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../subgraphs/platform/database.ts';
import { NotFoundError } from '../../subgraphs/platform/errors.ts';
import type { Limits } from '../limits/limits.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { createApiKey } from './api-keys.ts';
import { assertGranted } from './grants.ts';
import { registerLoginRoute } from './login-route.ts';
import { parseRequestInput } from './request-input.ts';
import type { LoginOptions } from './login-route.ts';
import type { SessionTokens } from './sessions.ts';

const CreateKeyBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').default('default'),
  mode: z.enum(['live', 'sandbox'], 'must be live or sandbox').default('live'),
});

/** A key as listings show it: never the key itself, which only its creation response carries. */
function keyListing(row: {
  id: string;
  name: string;
  mode: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  callsUsed: number;
}) {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    calls_used: row.callsUsed,
  };
}

/**
 * POST /api/auth/login and the /api/keys routes (docs/design.md "Accounts, keys, plans"; docs/api.md "Authentication").
 * Each key route names its action for the grant table (grants.ts) before it reads its input.
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
) {
  const { control } = deps;
  registerLoginRoute(app, { control, sessions: deps.sessions, store: deps.limits.store, options: deps.login });

  app.post('/api/keys', async (request, reply) => {
    const requested =
      (request.body as { mode?: unknown } | null)?.mode === 'sandbox' ? 'create_sandbox_key' : 'create_live_key';
    assertGranted(request.viewer!, requested);
    const { name, mode } = parseRequestInput(request, { body: CreateKeyBody }).body;
    const created = await createApiKey(control, request.viewer!.accountId, mode, name);
    const row = await control.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    return reply.status(201).send({ ...keyListing(row), key: created.key });
  });

  app.get('/api/keys', async (request) => {
    assertGranted(request.viewer!, 'list_keys');
    parseRequestInput(request, {});
    // Live keys' calls and last use are counted in memory first (limits/usage-meter.ts): write them, then list.
    await deps.meter.flush();
    const rows = await control.prisma.apiKey.findMany({
      where: { accountId: request.viewer!.accountId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return { keys: rows.map(keyListing) };
  });

  app.delete('/api/keys/:id', async (request) => {
    assertGranted(request.viewer!, 'revoke_key');
    parseRequestInput(request, {});
    const { id } = request.params as { id: string };
    // Another account's key is "not found" too: its existence is never revealed.
    const found = z.uuid().safeParse(id).success
      ? await control.prisma.apiKey.findFirst({ where: { id, accountId: request.viewer!.accountId } })
      : null;
    if (!found) throw new NotFoundError(`API key ${id}`);
    const row = found.revokedAt
      ? found
      : await control.prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    return keyListing(row);
  });
}
