import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => {
  // Different generator seeds and sizes, so the two databases cannot be mistaken for each other.
  service = await startTestService({ sandboxScale: 200, liveScale: 100 });
});
afterAll(() => service?.stop());

describe('sandbox and live keys', () => {
  it('read their own database and nothing else', async () => {
    const sandbox = await service.createKey({ mode: 'sandbox' });
    const live = await service.createKey({ mode: 'live' });
    const [sandboxCount] = await service.databases.sandbox.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM companies',
    );
    const [liveCount] = await service.databases.live.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM companies',
    );
    expect(sandboxCount!.n).not.toBe(liveCount!.n);

    const viaSandbox = await service.get('/api/v1/b2b/companies?per_page=5&sort=id', sandbox.key);
    const viaLive = await service.get('/api/v1/b2b/companies?per_page=5&sort=id', live.key);
    expect(viaSandbox.body.pagination.total).toBe(sandboxCount!.n);
    expect(viaLive.body.pagination.total).toBe(liveCount!.n);

    const liveFirst = await service.databases.live.prisma.company.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const sandboxFirst = await service.databases.sandbox.prisma.company.findFirstOrThrow({ orderBy: { id: 'asc' } });
    expect(viaLive.body.data[0].company).toBe(liveFirst.name);
    expect(viaSandbox.body.data[0].company).toBe(sandboxFirst.name);
  });

  it('keep GraphQL on the same side', async () => {
    const live = await service.createKey({ mode: 'live' });
    const data = await service.graphql('{ signals(limit: 1) { pageInfo { total } } }', {}, live.key);
    const [stored] = await service.databases.live.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM signals');
    expect(data.signals.pageInfo.total).toBe(stored!.n);
  });

  it('a revoked key is refused like an unknown one', async () => {
    const { key, accountId } = await service.createKey({ mode: 'sandbox' });
    expect((await service.get('/api/signals', key)).status).toBe(200);
    await service.databases.live.prisma.apiKey.updateMany({ where: { accountId }, data: { revokedAt: new Date() } });
    // Revoked by hand, the gateway learns of it by the credentials trigger's notice: on PostgreSQL a moment later.
    await expect
      .poll(async () => (await service.get('/api/signals', key)).status, { timeout: 10_000, interval: 50 })
      .toBe(401);
    const refused = await service.get('/api/signals', key);
    const unknown = await service.get('/api/signals', `sk_test_${'x'.repeat(43)}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(unknown.body);
  });
});
