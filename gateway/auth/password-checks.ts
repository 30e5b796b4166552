import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../subgraphs/platform/database.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { AccountDisabledError, ApiError, UnauthorizedError } from '../../subgraphs/platform/errors.ts';
import type { CounterStore } from '../limits/store.ts';
import { createBoundedWork, SaturatedError } from './bounded-work.ts';
import { createLoginThrottle, LOGIN_THROTTLE_DEFAULTS } from './login-throttle.ts';
import type { LoginThrottleOptions } from './login-throttle.ts';
import { hashPassword, PASSWORD_LENGTH, verifyPassword } from './passwords.ts';

const email = z.string().trim().toLowerCase().pipe(z.email('must be an e-mail address'));

export const LoginBody = z.strictObject({
  email,
  password: z.string().min(1, 'is required').max(PASSWORD_LENGTH.max, 'is too long'),
});

/** A new account's address and password: the admin command's rule (passwords.ts PASSWORD_LENGTH). */
export const SignUpBody = z.strictObject({
  email,
  password: z
    .string()
    .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
    .max(PASSWORD_LENGTH.max, 'is too long'),
});

export interface LoginOptions {
  throttle: Partial<LoginThrottleOptions>;
  /** Password hashes computed at once by this process (LOGIN_HASH_CONCURRENCY). */
  hashConcurrency: number;
  /** Logins that may wait for a hashing slot; beyond them a login is refused at once (LOGIN_HASH_QUEUE). */
  hashQueue: number;
}

export interface PasswordChecks {
  /** The account of this address and password; 401 when either is wrong, 429 when throttled or saturated. */
  logIn(credentials: z.output<typeof LoginBody>, request: FastifyRequest, reply: FastifyReply): Promise<LoggedIn>;
  /**
   * Sign-up's share of the same protections: an attempt slot for the address (429 past the throttle) before
   * anything is looked up, then the new password's hash under the same bound on scrypt work, so creating
   * accounts is no cheaper way to guess addresses or to queue hashing.
   */
  reserveAttempt(email: string, request: FastifyRequest, reply: FastifyReply): Promise<void>;
  hashNew(password: string, reply: FastifyReply): Promise<string>;
  /** Marks the address and IP as the owner's (a successful sign-up, as a login does). */
  succeeded(email: string, request: FastifyRequest): Promise<void>;
}

export interface LoggedIn {
  id: string;
  email: string;
  plan: string;
}

/**
 * Every password a request brings is checked here: one attempt throttle (login-throttle.ts) and one bound on
 * scrypt work (bounded-work.ts) per process, shared by POST /api/auth/login and the account dashboard's sign-in
 * and sign-up (docs/security.md "Credentials, grants and login").
 */
export function createPasswordChecks(deps: {
  control: Database;
  store: CounterStore;
  options?: Partial<LoginOptions>;
}): PasswordChecks {
  const throttle = createLoginThrottle(deps.store, { ...LOGIN_THROTTLE_DEFAULTS, ...deps.options?.throttle });
  const hashing = createBoundedWork({
    concurrency: deps.options?.hashConcurrency ?? env.LOGIN_HASH_CONCURRENCY,
    queue: deps.options?.hashQueue ?? env.LOGIN_HASH_QUEUE,
  });

  const reserveAttempt = async (address: string, request: FastifyRequest, reply: FastifyReply) => {
    const refused = await throttle.reserve(address, request.ip);
    if (!refused) return;
    reply.header('retry-after', String(refused.retryAfterSeconds));
    throw new ApiError(
      'rate_limited',
      `Too many login attempts for this address; retry in ${refused.retryAfterSeconds} seconds.`,
    );
  };

  const bounded = async <T>(task: () => Promise<T>, reply: FastifyReply): Promise<T> => {
    try {
      return await hashing.run(task);
    } catch (error) {
      if (!(error instanceof SaturatedError)) throw error;
      reply.header('retry-after', '1');
      throw new ApiError('rate_limited', 'Too many logins are being checked right now; retry in 1 second.');
    }
  };

  return {
    async logIn({ email: address, password }, request, reply) {
      await reserveAttempt(address, request, reply);
      const account = await deps.control.prisma.account.findUnique({ where: { email: address } });
      // The password is checked even for an unknown address, so the time taken does not reveal which it was.
      const valid = await bounded(() => verifyPassword(password, account?.passwordHash), reply);
      if (!account || !valid) throw new UnauthorizedError('The e-mail address or password is incorrect.');
      // Said only to whoever knows the password: a disabled account starts no session.
      if (account.disabledAt) throw new AccountDisabledError();
      await throttle.succeeded(address, request.ip);
      return { id: account.id, email: account.email, plan: account.plan };
    },
    reserveAttempt,
    hashNew: (password, reply) => bounded(() => hashPassword(password), reply),
    succeeded: (address, request) => throttle.succeeded(address, request.ip),
  };
}
