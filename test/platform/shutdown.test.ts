import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { lockFilePath } from '../../subgraphs/platform/process/data-dir-lock.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import { serviceEnvironment, startChildServer } from '../support/child-process.ts';
import type { ChildServer } from '../support/child-process.ts';
import { createTestDatabases, TEST_ENGINE } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM on `npm start` (a child process): nothing counted or claimed is lost, and the next start carries on. */
describe(`clean shutdown on SIGTERM (${TEST_ENGINE})`, () => {
  let store: TestDatabases;
  let server: ChildServer | undefined;
  let env: NodeJS.ProcessEnv;
  const keys = { burst: { key: '', accountId: '' }, report: { key: '', accountId: '' } };

  beforeAll(async () => {
    // The template most other files use: 300 companies per vertical give a contacts report of over a thousand pages.
    store = await createTestDatabases({ sandboxScale: 300, liveScale: 300 });
    for (const name of ['burst', 'report'] as const) {
      const account = await createAccount(store.databases.live, 'institutional');
      keys[name] = { key: (await createApiKey(store.databases.live, account.id, 'live')).key, accountId: account.id };
    }
    await Promise.all(Object.values(store.databases).map((database) => database.close()));
    // One row per report page, so the report below is still being written when SIGTERM comes.
    env = serviceEnvironment(store, { REPORT_BATCH_SIZE: '1', SHUTDOWN_GRACE_MS: '20000' });
  }, 600_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await store?.drop();
  });

  const request = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${server!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const report = async (id: string) =>
    (
      (await (await request('GET', `/api/v1/reports/${id}`, keys.report.key)).json()) as {
        data: { status: string; row_count: number };
      }
    ).data;

  it('counts every live call answered before or during the shutdown, hands the report under way back, and the next start finishes it', async () => {
    server = await startChildServer(env);
    const generated = await request('POST', '/api/v1/reports/generate', keys.report.key, {
      vertical: 'b2b',
      record_type: 'contacts',
      format: 'json',
    });
    expect(generated.status).toBe(202);
    const { id } = ((await generated.json()) as { data: { id: string } }).data;
    for (let job = await report(id); !(job.status === 'processing' && job.row_count > 0); job = await report(id)) {
      expect(['queued', 'processing']).toContain(job.status);
      await sleep(50);
    }

    // A 503 while the server drains must be our body (gateway/http/closing.ts), not the framework's.
    const companies = () =>
      request('GET', '/api/v1/b2b/companies?per_page=1', keys.burst.key).then(
        async (response) =>
          response.status === 503 ? `503 ${((await response.json()) as { error: string }).error}` : response.status,
        () => 'refused',
      );
    const answered = await Promise.all(Array.from({ length: 30 }, companies));
    expect(answered).toEqual(Array(30).fill(200));
    // A second burst, with SIGTERM sent as soon as its first answer arrives: the rest are in flight or refused.
    const inFlight = Array.from({ length: 30 }, companies);
    await Promise.race(inFlight);
    const exit = await server.stop('SIGTERM');
    server = undefined;
    expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    const during = await Promise.all(inFlight);
    expect(
      during.filter((status) => status !== 200 && status !== '503 service_unavailable' && status !== 'refused'),
    ).toEqual([]);
    const counted = 30 + during.filter((status) => status === 200).length;
    if (TEST_ENGINE === 'pglite') expect(existsSync(lockFilePath(store.dataDir))).toBe(false);

    // Opened afresh: the ones createTestDatabases opened were closed for the server.
    const databases = {
      live: await openDatabase({ mode: 'live', url: store.urls.live, dataDir: store.dataDir }),
      sandbox: await openDatabase({ mode: 'sandbox', url: store.urls.sandbox, dataDir: store.dataDir }),
    };
    const [usage] = await databases.live.sql.query<{ calls: number }>(
      `SELECT sum(calls)::int AS calls FROM usage_counters WHERE account_id = $1::uuid AND mode = 'live'`,
      [keys.burst.accountId],
    );
    expect(usage!.calls).toBe(counted);
    const [key] = await databases.live.sql.query<{ calls_used: number }>(
      'SELECT calls_used FROM api_keys WHERE account_id = $1::uuid',
      [keys.burst.accountId],
    );
    expect(key!.calls_used).toBe(counted);
    const job = await databases.live.prisma.reportJob.findUniqueOrThrow({ where: { id: Number(id.slice(4)) } });
    // Handed back, not left `processing` for a stale-heartbeat retry half a minute later.
    expect(job).toMatchObject({ status: 'queued', attempts: 0, progress: 0 });
    const contacts = await databases.live.prisma.contact.count();
    await Promise.all(Object.values(databases).map((database) => database.close()));

    server = await startChildServer(env);
    const deadline = Date.now() + 240_000;
    let finished = await report(id);
    while (finished.status !== 'completed' && Date.now() < deadline) {
      expect(finished.status).not.toBe('failed');
      await sleep(200);
      finished = await report(id);
    }
    expect(finished).toMatchObject({ status: 'completed', row_count: contacts });
    const after = await request('GET', '/api/v1/usage', keys.burst.key);
    expect(((await after.json()) as { calls: number }).calls).toBe(counted + 1);
    const second = await server.stop('SIGINT');
    server = undefined;
    expect(second, second.stderr).toMatchObject({ code: 0, signal: null });
  }, 600_000);
});
