import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_LIMITS } from '../../gateway/access/anonymous-limit.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { startTestService } from '../support/service.ts';
import type { HttpResult, TestService } from '../support/service.ts';

/**
 * The public routes over real HTTP (docs/api.md "Markets", docs/security.md "Public routes"): a credential picks
 * the database as on every other route (sandbox key: sandbox; live key, session or none: live), a bad one is a
 * 401, and callers without one are limited per address with the plan limits' headers and 429.
 */
let service: TestService;
let sandboxKey: string;
let liveKey: string;

beforeAll(async () => {
  // Generated records in the sandbox, none live (a fresh install): the answers tell the databases apart.
  service = await startTestService({ sandboxScale: 300 });
  ({ key: sandboxKey } = await service.createKey({ plan: 'institutional', mode: 'sandbox' }));
  ({ key: liveKey } = await service.createKey({ plan: 'institutional', mode: 'live' }));
});
afterAll(() => service?.stop());

const anonymous = (path: string) => service.request('GET', path);
const withKey = (path: string, key: string) => service.request('GET', path, { key });

/** The public statistics as the database holds them (the rollups the route reads, and the members). */
async function statsOf(db: Database) {
  const [row] = await db.sql.query<{ congressional_trades: number; members_tracked: number }>(
    `SELECT (SELECT coalesce(sum(trades), 0)::int FROM market_disclosure_days) AS congressional_trades,
            (SELECT count(*)::int FROM members) AS members_tracked`,
  );
  return row!;
}

describe('a credential on a public route reads its own database', () => {
  it('/api/stats/public: sandbox key the sandbox, live key and no key the live database', async () => {
    const sandbox = await statsOf(service.databases.sandbox);
    const live = await statsOf(service.databases.live);
    expect(sandbox).not.toEqual(live);
    const bySandboxKey = await withKey('/api/stats/public', sandboxKey);
    expect(bySandboxKey.status).toBe(200);
    expect(bySandboxKey.body).toMatchObject(sandbox);
    for (const response of [await withKey('/api/stats/public', liveKey), await anonymous('/api/stats/public')]) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject(live);
    }
  });

  it('/api/search: the ticker as the sandbox has it with a sandbox key, unknown live', async () => {
    const [row] = await service.databases.sandbox.sql.query<{ ticker: string; close: number }>(
      `SELECT DISTINCT ON (ticker) ticker, close FROM daily_prices
        WHERE ticker IN (SELECT ticker FROM company_profiles) ORDER BY ticker, date DESC LIMIT 1`,
    );
    const { ticker, close } = row!;
    const bySandboxKey = await withKey(`/api/search?q=${ticker}`, sandboxKey);
    expect(bySandboxKey.status).toBe(200);
    expect(bySandboxKey.body).toMatchObject({ ticker, found: true });
    expect(bySandboxKey.body.quote.price).toBeCloseTo(close, 2);
    for (const response of [
      await withKey(`/api/search?q=${ticker}`, liveKey),
      await anonymous(`/api/search?q=${ticker}`),
    ]) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ ticker, found: false, quote: null });
    }
  });

  it('a credential that is not valid is a 401 on the public routes too, as everywhere', async () => {
    for (const path of ['/api/search?q=AAPL', '/api/stats/public']) {
      for (const key of ['sk_test_not-a-key', 'sk_live_not-a-key', 'not.a.token']) {
        const response = await withKey(path, key);
        expect(response.status, `${path} with ${key}`).toBe(401);
        expect(response.body.error).toBe('unauthorized');
      }
    }
  });
});

function expectHeaders(response: HttpResult, remaining: number) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(ANONYMOUS_LIMITS.public.max));
  expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
}

describe('anonymous callers of the public routes, per address', () => {
  it('get the rate-limit headers on every 200, then a 429 with Retry-After past the limit', async () => {
    const { max } = ANONYMOUS_LIMITS.public;
    // The calls above without a key came from this address too: start from what is left.
    const first = await anonymous('/api/stats/public');
    expect(first.status).toBe(200);
    let remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(max / 2);
    expectHeaders(first, remaining);
    for (let call = 0; remaining > 0; call++) {
      const response = await anonymous(call % 2 ? '/api/stats/public' : '/api/search?q=AAPL');
      expect(response.status).toBe(200);
      expectHeaders(response, --remaining);
    }
    for (const path of ['/api/search?q=AAPL', '/api/stats/public']) {
      const refused = await anonymous(path);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'rate_limited',
        message: expect.stringMatching(
          new RegExp(`^Rate limit of ${max} requests exceeded; retry in \\d+ seconds\\.$`),
        ),
      });
      expectHeaders(refused, 0);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // A key still answers from the same address: its calls count against its plan, not the address.
    const keyed = await withKey('/api/stats/public', sandboxKey);
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});
