import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { GRANTS } from '../../gateway/auth/grants.ts';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import { createSessionTokens } from '../../gateway/auth/sessions.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

const SECRET = 'g'.repeat(32);
const UNAUTHORIZED = { error: 'unauthorized', message: 'A valid API key or session token is required.' };
const refusal = (action: string) => ({
  error: 'live_credential_required',
  message: `${action} needs a session token or a live API key of the account; a sandbox key acts only on sandbox data.`,
  redirect: '/billing',
});

describe('credentials act only within their grant', () => {
  let service: TestService;
  let accountId: string;
  let session: string;
  let sandboxKey: string;
  let liveKey: { key: string; id: string };
  const email = 'grants.owner@example.com';
  const password = 'grant table passphrase';

  beforeAll(async () => {
    service = await startTestService({
      server: { sessions: createSessionTokens({ secrets: [SECRET], ttlSeconds: 600 }) },
    });
    const account = await createAccount(service.databases.live, 'institutional', email);
    accountId = account.id;
    await service.databases.live.prisma.account.update({
      where: { id: accountId },
      data: { passwordHash: await hashPassword(password) },
    });
    sandboxKey = (await createApiKey(service.databases.live, accountId, 'sandbox', 'demo')).key;
    liveKey = await createApiKey(service.databases.live, accountId, 'live', 'prod');
    const login = await service.request('POST', '/api/auth/login', { body: { email, password } });
    expect(login.status, login.text).toBe(200);
    session = login.body.token;
  });
  afterAll(() => service?.stop());

  const keyCount = async () =>
    Number(
      (
        await service.databases.live.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1',
          [accountId],
        )
      )[0]!.n,
    );

  it('refuses a sandbox key every key creation with the documented 403, writing nothing', async () => {
    const before = await keyCount();
    for (const [body, action] of [
      [{ mode: 'live' }, 'Creating a live API key'],
      [{ mode: 'sandbox' }, 'Creating a sandbox API key'],
      [{}, 'Creating a live API key'],
    ] as const) {
      const response = await service.request('POST', '/api/keys', { key: sandboxKey, body });
      expect(response.status, response.text).toBe(403);
      expect(response.body).toEqual(refusal(action));
    }
    expect(await keyCount()).toBe(before);
  });

  it("refuses a sandbox key listing or revoking the account's keys", async () => {
    const listed = await service.request('GET', '/api/keys', { key: sandboxKey });
    expect(listed.status).toBe(403);
    expect(listed.body).toEqual(refusal('Listing API keys'));
    const revoked = await service.request('DELETE', `/api/keys/${liveKey.id}`, { key: sandboxKey });
    expect(revoked.status).toBe(403);
    expect(revoked.body).toEqual(refusal('Revoking an API key'));
    const row = await service.databases.live.prisma.apiKey.findUniqueOrThrow({ where: { id: liveKey.id } });
    expect(row.revokedAt).toBeNull();
    expect((await service.get('/api/signals?limit=1', liveKey.key)).status).toBe(200);
  });

  it('lets a sandbox key read its own usage, and only sandbox data', async () => {
    const usage = await service.get('/api/v1/usage', sandboxKey);
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.mode).toBe('sandbox');
    expect(GRANTS.sandbox_key.data).toBe('sandbox');
  });

  it('lets a live session and a live key create live and sandbox keys, each counted in api_keys', async () => {
    const before = await keyCount();
    for (const credential of [session, liveKey.key]) {
      for (const mode of ['live', 'sandbox'] as const) {
        const created = await service.request('POST', '/api/keys', {
          key: credential,
          body: { mode, name: `by-${mode}` },
        });
        expect(created.status, created.text).toBe(201);
        expect(created.body.key).toMatch(mode === 'live' ? /^sk_live_/ : /^sk_test_/);
      }
    }
    expect(await keyCount()).toBe(before + 4);
    const listed = await service.request('GET', '/api/keys', { key: liveKey.key });
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toHaveLength(before + 4);
  });

  it('answers unknown query parameters and body fields with a 400 naming each, changing nothing', async () => {
    const usage = await service.get('/api/v1/usage?period=all&mode=live', liveKey.key);
    expect(usage.status).toBe(400);
    expect(usage.body.error).toBe('invalid_parameter');
    expect(Object.keys(usage.body.details).sort()).toEqual(['mode', 'period']);

    const list = await service.request('GET', '/api/keys?include_revoked=1', { key: session });
    expect(list.status).toBe(400);
    expect(list.body.details).toEqual({ include_revoked: 'is not a parameter of this endpoint' });

    const before = await keyCount();
    const create = await service.request('POST', '/api/keys?plan=institutional', {
      key: session,
      body: { name: 'x', mode: 'live', account_id: '00000000-0000-0000-0000-000000000000', plan: 'institutional' },
    });
    expect(create.status).toBe(400);
    expect(Object.keys(create.body.details).sort()).toEqual(['account_id', 'plan']);
    expect(await keyCount()).toBe(before);

    const target = await createApiKey(service.databases.live, accountId, 'live', 'target');
    const withQuery = await service.request('DELETE', `/api/keys/${target.id}?force=true`, { key: session });
    const withBody = await service.request('DELETE', `/api/keys/${target.id}`, { key: session, body: { reason: 'x' } });
    expect([withQuery.status, withBody.status]).toEqual([400, 400]);
    expect(withQuery.body.details).toEqual({ force: 'is not a parameter of this endpoint' });
    expect(withBody.body.details).toEqual({ reason: 'is not a parameter of this endpoint' });
    expect(
      (await service.databases.live.prisma.apiKey.findUniqueOrThrow({ where: { id: target.id } })).revokedAt,
    ).toBeNull();

    const login = await service.request('POST', '/api/auth/login', { body: { email, password, remember: true } });
    expect(login.status).toBe(400);
    expect(login.body.details).toEqual({ remember: 'is not a parameter of this endpoint' });
  });

  it('refuses session tokens that are unsigned, of another algorithm, or without exp, iat, sub or jti', async () => {
    const kid = JSON.parse(Buffer.from(session.split('.')[0]!, 'base64url').toString()).kid as string;
    const secret = new TextEncoder().encode(SECRET);
    const now = Math.floor(Date.now() / 1000);
    const base64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    // The live session of `session`: each token below names it, so each refusal is about what was changed.
    const jti = decodeJwt(session).jti!;
    const claims = { sub: accountId, jti, iss: 'data-graph', iat: now, exp: now + 600 };
    const tokens = {
      unsigned: `${base64({ alg: 'none', typ: 'JWT' })}.${base64(claims)}.`,
      noneWithSignature: `${base64({ alg: 'none', kid })}.${base64(claims)}.c2lnbmF0dXJl`,
      hs512: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS512', kid })
        .setSubject(accountId)
        .setJti(jti)
        .setIssuer('data-graph')
        .setIssuedAt()
        .setExpirationTime(now + 600)
        .sign(secret),
      noExp: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid })
        .setSubject(accountId)
        .setJti(jti)
        .setIssuer('data-graph')
        .setIssuedAt()
        .sign(secret),
      noIat: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid })
        .setSubject(accountId)
        .setJti(jti)
        .setIssuer('data-graph')
        .setExpirationTime(now + 600)
        .sign(secret),
      noSub: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid })
        .setJti(jti)
        .setIssuer('data-graph')
        .setIssuedAt()
        .setExpirationTime(now + 600)
        .sign(secret),
      tooOld: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid })
        .setSubject(accountId)
        .setJti(jti)
        .setIssuer('data-graph')
        .setIssuedAt(now - 3600)
        .setExpirationTime(now + 600)
        .sign(secret),
      noJti: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid })
        .setSubject(accountId)
        .setIssuer('data-graph')
        .setIssuedAt()
        .setExpirationTime(now + 600)
        .sign(secret),
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await service.request('GET', '/api/keys', { key: token });
      expect(response.status, name).toBe(401);
      expect(response.body, name).toEqual(UNAUTHORIZED);
    }
    // The same secret and claims with HS256 and exp are accepted: the refusals above are about what was changed.
    const good = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid })
      .setSubject(accountId)
      .setJti(jti)
      .setIssuer('data-graph')
      .setIssuedAt()
      .setExpirationTime(now + 600)
      .sign(secret);
    expect((await service.request('GET', '/api/keys', { key: good })).status).toBe(200);
  });
});
