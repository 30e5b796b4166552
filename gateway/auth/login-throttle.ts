import type { CounterStore } from '../limits/store.ts';

export interface LoginThrottleOptions {
  /** Login attempts per address from one client IP in a sliding window. */
  attemptsPerAddressAndIp: number;
  /** Login attempts per address from all IPs together, except IPs that logged in to it before. */
  attemptsPerAddress: number;
  windowMs: number;
  /** How long an IP that logged in successfully stays exempt from the per-address ceiling. */
  knownIpMs: number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleOptions = {
  attemptsPerAddressAndIp: 10,
  attemptsPerAddress: 100,
  windowMs: 60_000,
  knownIpMs: 30 * 86_400_000,
};

export interface LoginThrottle {
  /** Takes an attempt slot before the password is hashed (atomic in the store); when none is left, the seconds to wait. */
  reserve(email: string, ip: string): Promise<{ retryAfterSeconds: number } | undefined>;
  /**
   * Remembers the IP as one the address's owner uses, exempt from the per-address ceiling from now on, and
   * clears the attempts of this address and IP: the owner logging in again and again is not guessing.
   */
  succeeded(email: string, ip: string): Promise<void>;
}

/**
 * Guessing throttle for POST /api/auth/login (docs/security.md "Credentials, grants and login"). A slot is taken before the
 * slow hash, so parallel guesses cannot all read "under the limit"; keyed by address and IP, so a stranger
 * spends only their own slots and the owner's other IPs still log in.
 */
export function createLoginThrottle(
  store: CounterStore,
  options: LoginThrottleOptions = LOGIN_THROTTLE_DEFAULTS,
): LoginThrottle {
  const { attemptsPerAddressAndIp, attemptsPerAddress, windowMs, knownIpMs } = options;
  const retryAfter = (oldest: number, now: number) => Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));

  return {
    async reserve(email, ip) {
      const now = Date.now();
      const pair = await store.slide(`login-attempts:${email}|${ip}`, now, windowMs, attemptsPerAddressAndIp);
      if (!pair.added) return { retryAfterSeconds: retryAfter(pair.oldest, now) };
      if (await store.get(`login-known:${email}|${ip}`)) return undefined;
      const address = await store.slide(`login-attempts:${email}`, now, windowMs, attemptsPerAddress);
      return address.added ? undefined : { retryAfterSeconds: retryAfter(address.oldest, now) };
    },
    async succeeded(email, ip) {
      await store.set(`login-known:${email}|${ip}`, '1', knownIpMs);
      await store.clearLog(`login-attempts:${email}|${ip}`);
    },
  };
}
