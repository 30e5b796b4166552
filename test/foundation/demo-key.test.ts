import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../gateway/auth/api-keys.ts';
import { ensureDemoKey } from '../../gateway/demo-key.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
});
afterAll(() => service?.stop());

describe('the demo key npm start prints', () => {
  it('works, and is the same key on the next start', async () => {
    const key = await ensureDemoKey(service.databases.live, service.store.dataDir, 500);
    expect(key).toMatch(/^sk_test_/);
    const response = await service.get('/api/v1/b2b/companies?industry=software&state=CA&min_score=80', key);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(await ensureDemoKey(service.databases.live, service.store.dataDir, 500)).toBe(key);
  });

  it('is replaced once its sandbox credits are spent', async () => {
    const key = await ensureDemoKey(service.databases.live, service.store.dataDir, 500);
    await service.databases.live.prisma.apiKey.update({ where: { hash: hashKey(key) }, data: { callsUsed: 500 } });
    const next = await ensureDemoKey(service.databases.live, service.store.dataDir, 500);
    expect(next).not.toBe(key);
    expect((await service.get('/api/signals?limit=1', next)).status).toBe(200);
  });
});
