import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import { createSessionTokens } from '../../gateway/auth/sessions.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

const UNAUTHORIZED = { error: 'unauthorized', message: 'A valid API key or session token is required.' };
const SECRETS = ['a'.repeat(32), 'b'.repeat(32)];

describe('accounts, session tokens and API keys', () => {
  let service: TestService;
  const email = 'new.user@example.com';
  const password = 'correct horse battery';

  beforeAll(async () => {
    service = await startTestService({
      server: { sessions: createSessionTokens({ secrets: SECRETS, ttlSeconds: 600 }) },
    });
    const account = await createAccount(service.databases.live, 'professional', email);
    await service.databases.live.prisma.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword(password) },
    });
  });
  afterAll(() => service?.stop());

  async function login() {
    const response = await service.request('POST', '/api/auth/login', { body: { email, password } });
    expect(response.status, response.text).toBe(200);
    return response.body as {
      token: string;
      token_type: string;
      expires_at: string;
      account: { id: string; plan: string };
    };
  }

  it('stores the password with a slow KDF, never in clear', async () => {
    const [row] = await service.databases.live.sql.query<{ password_hash: string }>(
      'SELECT password_hash FROM accounts WHERE email = $1',
      [email],
    );
    expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row!.password_hash).not.toContain(password);
  });

  it('logs in with e-mail and password and returns a JWT with its expiry', async () => {
    const body = await login();
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.token_type).toBe('Bearer');
    const ttl = Date.parse(body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(500_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    expect(body.account.plan).toBe('professional');
  });

  it('refuses a wrong password and an unknown address with the same 401', async () => {
    const wrong = await service.request('POST', '/api/auth/login', { body: { email, password: 'nope nope nope' } });
    const unknown = await service.request('POST', '/api/auth/login', {
      body: { email: 'nobody@example.com', password },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'unauthorized', message: 'The e-mail address or password is incorrect.' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses an 11th failed login in a minute with a 429 and Retry-After, even with the right password', async () => {
    const target = 'target@example.com';
    const account = await createAccount(service.databases.live, 'analyst', target);
    await service.databases.live.prisma.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword(password) },
    });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await service.request('POST', '/api/auth/login', {
        body: { email: target, password: `guess-${attempt}` },
      });
      expect(response.status).toBe(401);
    }
    const blocked = await service.request('POST', '/api/auth/login', { body: { email: target, password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers a login without fields with a 400 naming them', async () => {
    const response = await service.request('POST', '/api/auth/login', { body: { email: 'not-an-address' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(Object.keys(response.body.details).sort()).toEqual(['email', 'password']);
  });

  it('creates a key with the session token, shows it once, stores only its hash, and the key then works', async () => {
    const { token, account } = await login();
    const created = await service.request('POST', '/api/keys', { key: token, body: { name: 'ci', mode: 'live' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.key).toMatch(/^sk_live_[\w-]{40,}$/);
    expect(created.body).toMatchObject({ name: 'ci', mode: 'live', last_used_at: null, revoked_at: null });

    const stored = await service.databases.live.sql.query<{ hash: string; prefix: string }>(
      'SELECT hash, prefix FROM api_keys WHERE id = $1',
      [created.body.id],
    );
    expect(stored[0]!.hash).not.toContain(created.body.key);
    expect(created.body.key.startsWith(stored[0]!.prefix)).toBe(true);

    const call = await service.get('/api/signals', created.body.key);
    expect(call.status, call.text).toBe(200);
    const listed = await service.request('GET', '/api/keys', { key: token });
    const entry = listed.body.keys.find((key: { id: string }) => key.id === created.body.id);
    expect(entry.key).toBeUndefined();
    expect(Date.parse(entry.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(listed.body.keys.every((key: { id: string }) => typeof key.id === 'string')).toBe(true);
    expect(account.id).toBeTruthy();
  });

  it('creates sandbox keys with the sk_test_ prefix, also when the caller holds an API key', async () => {
    const { token } = await login();
    const live = await service.request('POST', '/api/keys', { key: token, body: {} });
    expect(live.body.key).toMatch(/^sk_live_/);
    const sandbox = await service.request('POST', '/api/keys', { key: live.body.key, body: { mode: 'sandbox' } });
    expect(sandbox.status).toBe(201);
    expect(sandbox.body.key).toMatch(/^sk_test_/);
    const bad = await service.request('POST', '/api/keys', { key: token, body: { mode: 'staging' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({ mode: 'must be live or sandbox' });
  });

  it('revokes a key: it is then a 401 with the same body as any bad credential', async () => {
    const { token } = await login();
    const created = await service.request('POST', '/api/keys', { key: token, body: { mode: 'live' } });
    const revoked = await service.request('DELETE', `/api/keys/${created.body.id}`, { key: token });
    expect(revoked.status).toBe(200);
    expect(Date.parse(revoked.body.revoked_at)).toBeGreaterThan(Date.now() - 60_000);
    const call = await service.get('/api/signals', created.body.key);
    expect(call.status).toBe(401);
    expect(call.body).toEqual(UNAUTHORIZED);
  });

  it("does not let one account revoke or see another account's key", async () => {
    const { token } = await login();
    const other = await createAccount(service.databases.live, 'institutional');
    const otherKey = await createApiKey(service.databases.live, other.id, 'live');
    const response = await service.request('DELETE', `/api/keys/${otherKey.id}`, { key: token });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('not_found');
    const malformed = await service.request('DELETE', '/api/keys/not-a-uuid', { key: token });
    expect(malformed.status).toBe(404);
    const row = await service.databases.live.prisma.apiKey.findUniqueOrThrow({ where: { id: otherKey.id } });
    expect(row.revokedAt).toBeNull();
    const listed = await service.request('GET', '/api/keys', { key: token });
    expect(listed.body.keys.map((key: { id: string }) => key.id)).not.toContain(otherKey.id);
  });

  it('answers missing, malformed, unknown, forged and expired credentials with one 401 body, on REST and GraphQL', async () => {
    const { token } = await login();
    const [header, payload] = token.split('.');
    // A live session's claims, signed with a secret the service does not hold.
    const claims = decodeJwt((await login()).token);
    const foreign = await createSessionTokens({ secrets: ['c'.repeat(32)], ttlSeconds: 600 }).issue({
      accountId: claims.sub!,
      sessionId: claims.jti!,
    });
    const expired = await createSessionTokens({ secrets: SECRETS, ttlSeconds: 60 }).issue({
      accountId: (await login()).account.id,
      sessionId: randomUUID(),
    });
    const expiredToken = await (async () => {
      // jose refuses to sign an expired token directly; a token signed with an expiry in the past stands in.
      const kid = JSON.parse(Buffer.from(expired.token.split('.')[0]!, 'base64url').toString()).kid;
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid })
        .setSubject(claims.sub!)
        .setJti(claims.jti!)
        .setIssuer('data-graph')
        .setIssuedAt(1_600_000_000)
        .setExpirationTime(1_600_000_600)
        .sign(new TextEncoder().encode(SECRETS[0]));
    })();
    const credentials: (string | undefined)[] = [
      undefined,
      'Bearer',
      'Basic abc',
      'Bearer sk_live_unknown',
      'Bearer sk_test_',
      'Bearer nonsense',
      `Bearer ${header}.${payload}.forgedsignature`,
      `Bearer ${foreign.token}`,
      `Bearer ${expiredToken}`,
    ];
    for (const authorization of credentials) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const rest = await service.request('GET', '/api/signals', { headers });
      expect(rest.status, authorization).toBe(401);
      expect(rest.body).toEqual(UNAUTHORIZED);
      expect(rest.headers.get('www-authenticate')).toBe('Bearer realm="api"');
      // Over GraphQL the same refusal is a GraphQL response (signals needs a credential; __typename would not).
      const graphql = await service.request('POST', '/graphql', {
        headers,
        body: { query: '{ signals(limit: 1) { nodes { id } } }' },
      });
      expect(graphql.status, authorization).toBe(401);
      expect(graphql.body.errors[0].extensions).toEqual({ code: UNAUTHORIZED.error });
      expect(graphql.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    }
  });

  it('accepts tokens signed with an older secret still listed (rotation)', async () => {
    // A session of the service, its token signed with the older secret.
    const claims = decodeJwt((await login()).token);
    const older = await createSessionTokens({ secrets: [SECRETS[1]!], ttlSeconds: 600 }).issue({
      accountId: claims.sub!,
      sessionId: claims.jti!,
    });
    const response = await service.request('GET', '/api/keys', { key: older.token });
    expect(response.status, response.text).toBe(200);
  });

  it('lets a session token call GraphQL as its account', async () => {
    const { token } = await login();
    const response = await service.request('POST', '/graphql', {
      key: token,
      body: { query: '{ signals(limit: 1) { nodes { id } } }' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });
});
