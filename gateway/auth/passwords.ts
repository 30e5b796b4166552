import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/** scrypt at N=2^15: about 100 ms and 32 MiB per guess, so a stolen table is slow to attack. */
const COST: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>> = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * What a new password must be (admin create-account and sign-up alike). The upper bound is login's: a longer
 * password could be set but never typed in, and it bounds the work of hashing one.
 */
export const PASSWORD_LENGTH = { min: 8, max: 1024 } as const;

function derive(password: string, salt: Buffer, options: typeof COST): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 128 * options.N * options.r * 2 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so the cost can rise later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash to check against when the account has no password (or does not exist), so every case costs the same. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const target = stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
  const [scheme, n, r, p, salt, hash] = target.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return Boolean(stored) && actual.length === expected.length && timingSafeEqual(actual, expected);
}
