import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

  it('creates DATA_DIR when nothing has (PostgreSQL keeps no files there)', async () => {
    const dataDir = join(service.store.dataDir, 'not', 'made', 'yet');
    const key = await ensureDemoKey(service.databases.live, dataDir, 500);
    expect(existsSync(join(dataDir, 'demo-key'))).toBe(true);
    expect((await service.get('/api/signals?limit=1', key)).status).toBe(200);
  });

  it('gives every process starting at once a working key, though only one creates the demo account', async () => {
    const { prisma } = service.databases.live;
    await prisma.apiKey.deleteMany({ where: { account: { email: 'demo@example.com' } } });
    await prisma.account.deleteMany({ where: { email: 'demo@example.com' } });
    const dataDirs = ['a', 'b', 'c'].map((name) => join(service.store.dataDir, `process-${name}`));
    const keys = await Promise.all(dataDirs.map((dataDir) => ensureDemoKey(service.databases.live, dataDir, 500)));
    expect(await prisma.account.count({ where: { email: 'demo@example.com' } })).toBe(1);
    for (const key of keys) expect((await service.get('/api/signals?limit=1', key)).status).toBe(200);
  });
});
