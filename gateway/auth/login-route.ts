import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../subgraphs/platform/database.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { ApiError, UnauthorizedError } from '../../subgraphs/platform/errors.ts';
import type { CounterStore } from '../limits/store.ts';
import { createBoundedWork, SaturatedError } from './bounded-work.ts';
import { createLoginThrottle, LOGIN_THROTTLE_DEFAULTS } from './login-throttle.ts';
import type { LoginThrottleOptions } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import { parseRequestInput } from './request-input.ts';
import type { SessionTokens } from './sessions.ts';
import { PLANS } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { HandWrittenRoute } from '../openapi/hand-written-route.ts';

const LoginBody = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email('must be an e-mail address')),
  password: z.string().min(1, 'is required').max(1024, 'is too long'),
});

const LoginAnswer = z.strictObject({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.iso.datetime(),
  account: z.strictObject({ id: z.uuid(), email: z.email(), plan: z.enum(PLANS) }),
});

/** The login route as the OpenAPI document states it. */
export const LOGIN_ROUTE: HandWrittenRoute = {
  method: 'POST',
  path: '/api/auth/login',
  operationId: 'Login',
  summary: 'A session token for an e-mail address and password; present it as a bearer credential.',
  public: true,
  errors: [401],
  body: LoginBody,
  response: LoginAnswer,
};

export interface LoginOptions {
  throttle: Partial<LoginThrottleOptions>;
  /** Password hashes computed at once by this process (LOGIN_HASH_CONCURRENCY). */
  hashConcurrency: number;
  /** Logins that may wait for a hashing slot; beyond them a login is refused at once (LOGIN_HASH_QUEUE). */
  hashQueue: number;
}

/** POST /api/auth/login (docs/api.md "Authentication", docs/security.md "Credentials, grants and login"). */
export function registerLoginRoute(
  app: FastifyInstance,
  deps: { control: Database; sessions: SessionTokens; store: CounterStore; options?: Partial<LoginOptions> },
) {
  const { control, sessions } = deps;
  const throttle = createLoginThrottle(deps.store, { ...LOGIN_THROTTLE_DEFAULTS, ...deps.options?.throttle });
  const hashing = createBoundedWork({
    concurrency: deps.options?.hashConcurrency ?? env.LOGIN_HASH_CONCURRENCY,
    queue: deps.options?.hashQueue ?? env.LOGIN_HASH_QUEUE,
  });

  app.post('/api/auth/login', { config: { public: true } }, async (request, reply) => {
    const { email, password } = parseRequestInput(request, { body: LoginBody }).body;
    const refused = await throttle.reserve(email, request.ip);
    if (refused) {
      reply.header('retry-after', String(refused.retryAfterSeconds));
      throw new ApiError(
        'rate_limited',
        `Too many login attempts for this address; retry in ${refused.retryAfterSeconds} seconds.`,
      );
    }
    const account = await control.prisma.account.findUnique({ where: { email } });
    let valid: boolean;
    try {
      // The password is checked even for an unknown address, so the time taken does not reveal which it was.
      valid = await hashing.run(() => verifyPassword(password, account?.passwordHash));
    } catch (error) {
      if (!(error instanceof SaturatedError)) throw error;
      reply.header('retry-after', '1');
      throw new ApiError('rate_limited', 'Too many logins are being checked right now; retry in 1 second.');
    }
    if (!account || !valid) throw new UnauthorizedError('The e-mail address or password is incorrect.');
    await throttle.succeeded(email, request.ip);
    const { token, expiresAt } = await sessions.issue(account.id);
    return reply.send({
      token,
      token_type: 'Bearer',
      expires_at: expiresAt.toISOString(),
      account: { id: account.id, email: account.email, plan: account.plan as Plan },
    } satisfies z.input<typeof LoginAnswer>);
  });
}
