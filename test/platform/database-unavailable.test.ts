import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let key: string;
let sandbox: Database;
let unreachable: Database;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
  ({ key } = await service.createKey({ mode: 'sandbox' }));
  sandbox = service.databases.sandbox;
  // Nothing listens on port 1: every connection is refused, as when the database server is down.
  unreachable = await openDatabase({ mode: 'sandbox', url: 'postgresql://postgres@127.0.0.1:1/postgres' });
  service.databases.sandbox = unreachable;
});
afterAll(async () => {
  service.databases.sandbox = sandbox;
  await unreachable?.close();
  await service?.stop();
});

describe('when a database cannot be reached', () => {
  it('REST answers 503 database_unavailable, without internals', async () => {
    const response = await service.get('/api/v1/b2b/companies', key);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'database_unavailable', message: expect.any(String) });
    expect(response.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|prisma/i);
  });

  it('GraphQL carries the same code', async () => {
    const result = await service.graphqlRaw('{ signals(limit: 1) { pageInfo { total } } }', {}, key);
    expect(result.body.errors[0].extensions.code).toBe('database_unavailable');
    expect(result.text).not.toMatch(/ECONNREFUSED|prisma/i);
  });

  it('/readyz says so', async () => {
    const response = await service.request('GET', '/readyz');
    expect(response.status).toBe(503);
    expect(response.body.error).toBe('database_unavailable');
  });
});
