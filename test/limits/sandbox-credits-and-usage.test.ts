import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../gateway/server.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

describe('sandbox credits and usage metering', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.stop());

  it('gives a sandbox key 500 calls; the 501st is the documented 403, also after a restart', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
    for (let call = 1; call <= 500; call += 1) {
      const response = await service.get('/api/v1/usage', key);
      expect(response.status, `call ${call}`).toBe(200);
      if (call === 1 || call === 500) {
        expect(response.body).toMatchObject({ mode: 'sandbox', calls: call, allowance: 500, remaining: 500 - call });
        expect(response.headers.get('x-usage-remaining')).toBe(String(500 - call));
      }
    }
    const trialOver = {
      error: 'trial_limit_reached',
      message: 'This sandbox key has used all 500 trial calls. Choose a plan to continue with a live key.',
      redirect: '/billing',
    };
    const refused = await service.get('/api/signals', key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(trialOver);
    const graphql = await service.request('POST', '/graphql', { key, body: { query: '{ __typename }' } });
    expect(graphql.status).toBe(403);
    expect(graphql.body).toEqual({
      errors: [{ message: trialOver.message, extensions: { code: trialOver.error, redirect: trialOver.redirect } }],
    });
    const [row] = await service.databases.live.sql.query<{ calls_used: number }>(
      'SELECT calls_used FROM api_keys WHERE prefix = $1',
      [key.slice(0, 12)],
    );
    expect(row!.calls_used).toBe(500);

    // A restarted gateway on the same databases still counts the spent credits.
    await service.app.close();
    const databases = await service.store.reopen();
    const restarted = await createServer({ databases });
    try {
      await restarted.ready();
      const again = await restarted.inject({
        method: 'GET',
        url: '/api/signals',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(again.statusCode).toBe(403);
      expect(again.json()).toEqual(trialOver);
      // Another sandbox key still has its own 500.
      const fresh = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
      const ok = await restarted.inject({
        method: 'GET',
        url: '/api/v1/usage',
        headers: { authorization: `Bearer ${fresh.key}` },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ calls: 1, remaining: 499 });
    } finally {
      await restarted.close();
    }
  });
});

describe('a new user: login, create a key, call, read usage', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.stop());

  it('sees its limits in the headers and a usage endpoint that agrees with its calls', async () => {
    const { hashPassword } = await import('../../gateway/auth/passwords.ts');
    const { createAccount } = await import('../../gateway/auth/api-keys.ts');
    const account = await createAccount(service.databases.live, 'professional', 'first.customer@example.com');
    await service.databases.live.prisma.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword('a long passphrase') },
    });

    const login = await service.request('POST', '/api/auth/login', {
      body: { email: 'first.customer@example.com', password: 'a long passphrase' },
    });
    const { token } = login.body;
    const created = await service.request('POST', '/api/keys', { key: token, body: { mode: 'live', name: 'backend' } });
    const key = created.body.key as string;
    let calls = 1; // creating the key was a call of the session
    for (let index = 0; index < 7; index += 1) {
      const response = await service.get('/api/signals?limit=1', key);
      calls += 1;
      expect(response.headers.get('x-ratelimit-limit')).toBe('300');
      expect(response.headers.get('x-usage-calls')).toBe(String(calls));
    }
    const usage = await service.get('/api/v1/usage', key);
    calls += 1;
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      mode: 'live',
      plan: 'professional',
      period: { start: expect.stringMatching(/T00:00:00\.000Z$/), end: expect.stringMatching(/T00:00:00\.000Z$/) },
      calls,
      allowance: 10_000,
      remaining: 10_000 - calls,
      overage_calls: 0,
      overage_cost: 0,
      overage_price_per_call: 0.01,
    });
    const [row] = await service.databases.live.sql.query<{ calls: number }>(
      `SELECT calls FROM usage_counters WHERE account_id = $1 AND mode = 'live' AND day = (now() AT TIME ZONE 'UTC')::date`,
      [account.id],
    );
    expect(row!.calls).toBe(calls);
  });

  it('meters live calls beyond the daily allowance as overage at 0.01 each', async () => {
    const { key, accountId } = await service.createKey({ plan: 'analyst', mode: 'live' });
    const day = new Date().toISOString().slice(0, 10);
    // The day's count stands at the analyst allowance (1,000) already; the next three calls are overage.
    await service.databases.live.sql.query(
      `INSERT INTO usage_counters (account_id, mode, day, calls) VALUES ($1, 'live', $2::date, 1000)`,
      [accountId, day],
    );
    await service.get('/api/signals?limit=1', key);
    await service.get('/api/signals?limit=1', key);
    const usage = await service.get('/api/v1/usage', key);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({
      calls: 1003,
      allowance: 1000,
      remaining: 0,
      overage_calls: 3,
      overage_cost: 0.03,
    });
    expect(usage.headers.get('x-usage-overage')).toBe('3');
  });
});
