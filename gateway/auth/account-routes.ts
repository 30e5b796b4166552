import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../subgraphs/shared/database.ts';
import { ApiError, NotFoundError, UnauthorizedError } from '../../subgraphs/shared/errors.ts';
import { parseArguments } from '../../subgraphs/shared/validation.ts';
import type { Limits } from '../limits/limits.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import { createApiKey } from './api-keys.ts';
import { verifyPassword } from './passwords.ts';
import type { SessionTokens } from './sessions.ts';

const LoginBody = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('must be an e-mail address')),
  password: z.string().min(1, 'is required').max(1024, 'is too long'),
});

const CreateKeyBody = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'is at most 100 characters').default('default'),
  mode: z.enum(['live', 'sandbox'], 'must be live or sandbox').default('live'),
});

/** Failed logins allowed per e-mail address and minute, before a 429: passwords are not guessed online. */
const FAILED_LOGINS_PER_MINUTE = 10;
const LOGIN_WINDOW_MS = 60_000;

function bodyOf(request: FastifyRequest): unknown {
  return request.body ?? {};
}

/** A key as listings show it: never the key itself, which only its creation response carries. */
function keyListing(row: {
  id: string; name: string; mode: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; callsUsed: number;
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

/** POST /api/auth/login and the /api/keys routes (DESIGN.md "Accounts, keys, plans"; docs/api.md "Authentication"). */
export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { control: Database; sessions: SessionTokens; limits: Limits; meter: UsageMeter },
) {
  const { control, sessions, limits } = deps;

  app.post('/api/auth/login', { config: { public: true } }, async (request, reply) => {
    const { email, password } = parseArguments(LoginBody, bodyOf(request));
    // A sliding minute: with a window per clock minute, ten failures either side of a minute's end let a
    // guesser (and a flaky test) through twice over. A limit of 0 reads the log without recording.
    const failuresKey = `login-failures:${email}`;
    const recent = await limits.store.slide(failuresKey, Date.now(), LOGIN_WINDOW_MS, 0);
    if (recent.count >= FAILED_LOGINS_PER_MINUTE) {
      reply.header('retry-after', String(Math.max(1, Math.ceil((recent.oldest + LOGIN_WINDOW_MS - Date.now()) / 1000))));
      throw new ApiError('rate_limited', 'Too many failed logins for this address; retry in a minute.');
    }
    const account = await control.prisma.account.findUnique({ where: { email } });
    // The password is checked even for an unknown address, so the time taken does not reveal which it was.
    const valid = await verifyPassword(password, account?.passwordHash);
    if (!account || !valid) {
      await limits.store.slide(failuresKey, Date.now(), LOGIN_WINDOW_MS, FAILED_LOGINS_PER_MINUTE);
      throw new UnauthorizedError('The e-mail address or password is incorrect.');
    }
    const { token, expiresAt } = await sessions.issue(account.id);
    return {
      token,
      token_type: 'Bearer',
      expires_at: expiresAt.toISOString(),
      account: { id: account.id, email: account.email, plan: account.plan },
    };
  });

  app.post('/api/keys', async (request, reply) => {
    const { name, mode } = parseArguments(CreateKeyBody, bodyOf(request));
    const created = await createApiKey(control, request.viewer!.accountId, mode, name);
    const row = await control.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    return reply.status(201).send({ ...keyListing(row), key: created.key });
  });

  app.get('/api/keys', async (request) => {
    // Live keys' calls and last use are counted in memory first (limits/usage-meter.ts): write them, then list.
    await deps.meter.flush();
    const rows = await control.prisma.apiKey.findMany({
      where: { accountId: request.viewer!.accountId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return { keys: rows.map(keyListing) };
  });

  app.delete('/api/keys/:id', async (request) => {
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
