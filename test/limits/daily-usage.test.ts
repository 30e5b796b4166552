import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/** GET /api/v1/usage/daily: the account's calls per UTC day, from the rows the usage meter writes. */
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
});
afterAll(() => service?.stop());

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('GET /api/v1/usage/daily', () => {
  it('gives 30 days by default, oldest first, with this call and earlier days counted', async () => {
    const { key, accountId } = await service.createKey({ plan: 'professional', mode: 'live' });
    const other = await service.createKey({ plan: 'professional', mode: 'live' });
    // Earlier days as the meter writes them; one outside the 30 days, and another account's.
    await service.databases.live.sql.query(
      `INSERT INTO usage_counters (account_id, mode, day, calls)
       VALUES ($1::uuid, 'live', $2::date, 7), ($1::uuid, 'live', $3::date, 99), ($1::uuid, 'sandbox', $2::date, 5),
              ($4::uuid, 'live', $2::date, 1000)`,
      [accountId, utcDay(10), utcDay(40), other.accountId],
    );
    await service.request('GET', '/api/signals', { key });
    const daily = await service.request('GET', '/api/v1/usage/daily', { key });
    expect(daily.status, daily.text).toBe(200);
    const { days } = daily.body;
    expect(days).toHaveLength(30);
    expect(daily.body).toMatchObject({ mode: 'live', from: days[0].date, to: days.at(-1).date });
    const counts = Object.fromEntries(days.map((day: { date: string; calls: number }) => [day.date, day.calls]));
    expect(counts[utcDay(10)]).toBe(7);
    // The signals call and this one (a call is counted when it is admitted, before it answers).
    expect(days.at(-1).calls).toBe(2);
    expect(days.reduce((sum: number, day: { calls: number }) => sum + day.calls, 0)).toBe(9);
    expect(new Set(days.map((day: { date: string }) => day.date)).size).toBe(30);

    const week = await service.request('GET', '/api/v1/usage/daily?days=7', { key });
    expect(week.body.days).toHaveLength(7);
    expect(week.body.days.at(-1).calls).toBe(3);
  });

  it('answers a sandbox key with the account’s sandbox calls', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    await service.request('GET', '/api/signals', { key });
    const daily = await service.request('GET', '/api/v1/usage/daily?days=1', { key });
    expect(daily.body).toEqual({
      mode: 'sandbox',
      from: expect.any(String),
      to: daily.body.from,
      days: [{ date: daily.body.from, calls: 2 }],
    });
  });

  it('refuses a bad or unknown parameter, and a request without a credential', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'live' });
    for (const [query, detail] of [
      ['days=0', { days: 'must be at least 1' }],
      ['days=91', { days: 'must be at most 90' }],
      ['days=1.5', { days: 'must be a whole number' }],
      ['days=abc', { days: 'must be a whole number' }],
      ['day=3', { day: 'is not a parameter of this endpoint' }],
    ] as const) {
      const response = await service.request('GET', `/api/v1/usage/daily?${query}`, { key });
      expect(response.status, query).toBe(400);
      expect(response.body.details, query).toEqual(detail);
    }
    expect((await service.request('GET', '/api/v1/usage/daily')).status).toBe(401);
  });
});
