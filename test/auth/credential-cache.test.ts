import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { recordStatements } from '../support/record-statements.ts';

const KEY_LOOKUP = /FROM api_keys k JOIN accounts a/;

/**
 * Valid keys are remembered (gateway/auth/credential-cache.ts) and forgotten on any change that could refuse
 * them: the cache must never answer a revoked key or an old plan. Changes made "by another process" are made
 * here through the test's own connection, which the gateway learns of only through the trigger's notice.
 */
describe('checked API keys kept in memory', () => {
  let service: TestService;
  const statements: string[] = [];

  beforeAll(async () => {
    service = await startTestService();
    recordStatements(service.databases.live.sql, statements);
  });
  afterAll(() => service?.stop());

  const lookups = () => statements.filter((text) => KEY_LOOKUP.test(text)).length;
  /** Another process's change reaches this gateway by a notice: on PostgreSQL a moment after it commits. */
  const eventually = (check: () => Promise<unknown>, expected: unknown) =>
    expect.poll(check, { timeout: 10_000, interval: 50 }).toEqual(expected);

  it('looks a valid key up once, and an unknown key on every call (each 401 costs the same lookup)', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'live' });
    statements.length = 0;
    for (let call = 0; call < 3; call += 1) expect((await service.get('/api/v1/usage', key)).status).toBe(200);
    expect(lookups()).toBe(1);

    statements.length = 0;
    const unknown = `sk_live_${'x'.repeat(43)}`;
    for (let call = 0; call < 3; call += 1) expect((await service.get('/api/v1/usage', unknown)).status).toBe(401);
    expect(lookups()).toBe(3);
  });

  it('refuses a key revoked through the API from the revocation’s answer on', async () => {
    const { key } = await service.createKey({ plan: 'professional', mode: 'live' });
    expect((await service.get('/api/v1/usage', key)).status).toBe(200);
    const listed = await service.request('GET', '/api/keys', { key });
    const [own] = listed.body.keys as { id: string }[];
    const revoked = await service.request('DELETE', `/api/keys/${own!.id}`, { key });
    expect(revoked.status, revoked.text).toBe(200);
    const after = await service.get('/api/v1/usage', key);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'unauthorized', message: 'A valid API key or session token is required.' });
  });

  it('refuses a kept key revoked by another process, and never keeps it again', async () => {
    const { key, accountId } = await service.createKey({ plan: 'professional', mode: 'live' });
    expect((await service.get('/api/v1/usage', key)).status).toBe(200);
    await service.databases.live.sql.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1::uuid', [
      accountId,
    ]);
    await eventually(async () => (await service.get('/api/v1/usage', key)).status, 401);
    statements.length = 0;
    expect((await service.get('/api/v1/usage', key)).status).toBe(401);
    expect(lookups()).toBe(1);
  });

  it('applies a plan changed by another process (the admin command) to a kept key', async () => {
    const { key, accountId } = await service.createKey({ plan: 'analyst', mode: 'live' });
    expect((await service.get('/api/v1/usage', key)).body.plan).toBe('analyst');
    await service.databases.live.sql.query(`UPDATE accounts SET plan = 'institutional' WHERE id = $1::uuid`, [
      accountId,
    ]);
    await eventually(async () => (await service.get('/api/v1/usage', key)).body.plan, 'institutional');
  });

  it('refuses a kept key whose account was deleted', async () => {
    const { key, accountId } = await service.createKey({ plan: 'professional', mode: 'live' });
    expect((await service.get('/api/v1/usage', key)).status).toBe(200);
    await service.app.usageMeter.flush();
    await service.databases.live.sql.query('DELETE FROM usage_counters WHERE account_id = $1::uuid', [accountId]);
    await service.databases.live.sql.query('DELETE FROM accounts WHERE id = $1::uuid', [accountId]);
    await eventually(async () => (await service.get('/api/v1/usage', key)).status, 401);
  });
});
