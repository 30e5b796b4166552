import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/** Regression examples for what the abuse suite (rest-fuzz.test.ts) found or was written to prove. */
let service: TestService;
let key: string;
// Every refusal here comes before a record is looked up, so the databases stay empty.
const recordId = 'b2b_1';

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
  ({ key } = await service.createKey());
});
afterAll(() => service?.stop());

const rowCounts = async () => {
  const [counts] = await service.databases.sandbox.sql.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM leads) AS leads, (SELECT count(*)::int FROM watchlist_entries) AS watchlist,
      (SELECT count(*)::int FROM report_jobs) AS reports`,
  );
  const [keys] = await service.databases.live.sql.query<{ keys: number }>('SELECT count(*)::int AS keys FROM api_keys');
  return { ...counts, ...keys };
};

describe('parameter names that are members of Object.prototype', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('?%s=1 is a 400 naming it, with or without a key', async (name) => {
    const open = await service.request('GET', `/api/stats/public?${name}=1`);
    expect(open.status).toBe(400);
    expect(open.body).toEqual({ error: 'invalid_parameter', message: expect.any(String), details: { [name]: 'is not a parameter of this endpoint' } });
    const keyed = await service.get(`/api/v1/b2b/companies?${name}=1`, key);
    expect(keyed.status).toBe(400);
    expect(keyed.body.details).toEqual({ [name]: 'is not a parameter of this endpoint' });
  });

  it('a body member named constructor or toString is an unknown field, and nothing is saved', async () => {
    const before = await rowCounts();
    const response = await service.request('POST', '/api/v1/leads', { key, body: { record_id: recordId, constructor: 'x', toString: 'y' } });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual({ constructor: 'is not a field of this request', toString: 'is not a field of this request' });
    expect(await rowCounts()).toEqual(before);
  });
});
