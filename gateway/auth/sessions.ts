import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { JWTVerifyGetKey } from 'jose';

/** The issuer of API session tokens (POST /api/auth/login); other sessions name their own, so neither verifies as the other. */
const API_ISSUER = 'data-graph';
const ALGORITHM = 'HS256';

/** What a valid token says: whose it is, and which session (a row of session-store.ts) it belongs to. */
export interface SessionClaims {
  accountId: string;
  sessionId: string;
}

export interface SessionTokens {
  /** A signed token of one session (its `jti`) of an account, with its expiry. */
  issue(claims: SessionClaims): Promise<{ token: string; expiresAt: Date }>;
  /** The claims of a valid token, or undefined for an expired, forged or malformed one. */
  verify(token: string): Promise<SessionClaims | undefined>;
}

export interface SessionOptions {
  /** The first secret signs; all of them verify, so a new secret can be prepended without logging anyone out. */
  secrets?: readonly string[];
  ttlSeconds: number;
  /** `iss` written and required: the account dashboard's cookie sessions use their own (gateway/account). */
  issuer?: string;
}

/** A key id that names a secret without revealing it. */
function keyIdOf(secret: Uint8Array): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}

/**
 * HS256 session tokens (jose). Without configured secrets a random one is drawn per process: sessions then
 * end with the process and are not shared between gateways, which is why production sets JWT_SECRETS.
 */
export function createSessionTokens({ secrets, ttlSeconds, issuer = API_ISSUER }: SessionOptions): SessionTokens {
  const keys = (secrets?.length ? secrets.map((secret) => new TextEncoder().encode(secret)) : [randomBytes(32)]).map(
    (secret) => ({ secret: new Uint8Array(secret), kid: keyIdOf(secret) }),
  );
  const signing = keys[0]!;
  const keyFor: JWTVerifyGetKey = (header) => {
    const key = keys.find((candidate) => candidate.kid === header.kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    return key.secret;
  };

  return {
    async issue({ accountId, sessionId }) {
      const expiresAt = new Date((Math.floor(Date.now() / 1000) + ttlSeconds) * 1000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, kid: signing.kid, typ: 'JWT' })
        .setSubject(accountId)
        .setJti(sessionId)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(signing.secret);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        // Only HS256, and only tokens that carry their expiry and their session: without them they would never end.
        const { payload } = await jwtVerify(token, keyFor, {
          issuer,
          algorithms: [ALGORITHM],
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
          maxTokenAge: ttlSeconds,
        });
        const { sub, jti } = payload;
        return typeof sub === 'string' && typeof jti === 'string' ? { accountId: sub, sessionId: jti } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
