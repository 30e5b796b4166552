import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import type { Plan } from '../../subgraphs/platform/context.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { SEED_LOCK, withStartupLock } from '../../subgraphs/platform/startup-lock.ts';
import { TEST_ENGINE, createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { commandEnvironment, runScript } from '../support/child-process.ts';
import { startServiceProcess } from '../support/processes.ts';
import type { ServiceProcess } from '../support/processes.ts';
import { freePort } from '../../scripts/free-port.ts';
import { startTestRedis } from '../support/redis.ts';
import type { TestRedis } from '../support/redis.ts';

/**
 * docs/deployment.md's topology as separate OS processes: two subgraph services and two gateways on one
 * PostgreSQL and one Redis. Several processes on one database exist only with PostgreSQL (a PGlite folder
 * belongs to one process), so the PGlite project checks only what its single process relies on.
 */
const SANDBOX_CREDITS = 15;
const ANALYST_PER_MINUTE = 60;
const GATEWAY_READY = /Data graph ready at http:\/\/localhost:(\d+)/;
const SUBGRAPH_READY = /subgraph at http:\/\/[^:]+:(\d+)\/graphql/;

const advisoryLocks = async (database: Database) =>
  Number(
    (
      await database.sql.query<{ count: string }>(
        "SELECT count(*) AS count FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      )
    )[0]!.count,
  );

if (TEST_ENGINE !== 'postgres') {
  describe('the single-process mode on PGlite', () => {
    let store: TestDatabases;
    beforeAll(async () => {
      store = await createTestDatabases();
    });
    afterAll(() => store?.drop());

    it('holds a start-up lock on its one connection only while the work runs', async () => {
      const database = store.databases.sandbox;
      const during = await withStartupLock(database, SEED_LOCK, () => advisoryLocks(database));
      expect(during).toBe(1);
      expect(await advisoryLocks(database)).toBe(0);
    });
  });
} else {
  describe('two gateways and two subgraph services on one PostgreSQL and one Redis', () => {
    let store: TestDatabases;
    let redis: TestRedis;
    let env: Record<string, string>;
    let verticalsDataDir: string;
    const subgraphs: ServiceProcess[] = [];
    const gateways: ServiceProcess[] = [];

    const call = async (
      gateway: ServiceProcess,
      path: string,
      init: { key?: string; token?: string; body?: unknown } = {},
    ) => {
      const credential = init.key ?? init.token;
      const response = await fetch(`${gateway.url}${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: {
          ...(credential ? { authorization: `Bearer ${credential}` } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text.startsWith('{') ? JSON.parse(text) : text,
      };
    };
    const newKey = async (plan: Plan, mode: Mode) => {
      const account = await createAccount(store.databases.live, plan);
      return { accountId: account.id, key: (await createApiKey(store.databases.live, account.id, mode)).key };
    };

    beforeAll(async () => {
      // The sandbox is migrated but empty: the services starting together seed it once, at a tiny scale.
      store = await createTestDatabases({ sandboxScale: 0 });
      redis = await startTestRedis();
      env = {
        DATABASE_URL: store.urls.live!,
        SANDBOX_DATABASE_URL: store.urls.sandbox!,
        // A folder nothing has made yet, shared by both gateways (they write no report files: verticals does).
        DATA_DIR: join(store.dataDir, 'shared', 'data'),
        REDIS_URL: redis.url,
        GATEWAY_SECRET: randomBytes(24).toString('hex'),
        JWT_SECRETS: randomBytes(32).toString('hex'),
        SANDBOX_CREDITS: String(SANDBOX_CREDITS),
        SANDBOX_SEED_SCALE: '10',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
      };
      // Ports chosen up front so that the first gateway starts alongside the subgraph services it will call.
      const [verticalsPort, marketsPort] = [await freePort(), await freePort()];
      env.VERTICALS_URL = `http://127.0.0.1:${verticalsPort}/graphql`;
      env.MARKETS_URL = `http://127.0.0.1:${marketsPort}/graphql`;
      verticalsDataDir = join(store.dataDir, 'verticals', 'data');
      const started = await Promise.allSettled([
        startServiceProcess(
          'scripts/start-subgraph.ts',
          ['verticals'],
          { ...env, PORT: String(verticalsPort), DATA_DIR: verticalsDataDir },
          SUBGRAPH_READY,
        ),
        startServiceProcess(
          'scripts/start-subgraph.ts',
          ['markets'],
          { ...env, PORT: String(marketsPort) },
          SUBGRAPH_READY,
        ),
        startServiceProcess('gateway/main.ts', [], env, GATEWAY_READY),
      ]);
      // Whatever started is stopped by afterAll, even when another process failed to start.
      started.forEach((result, i) => {
        if (result.status === 'fulfilled') (i < 2 ? subgraphs : gateways).push(result.value);
      });
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    }, 240_000);

    afterAll(async () => {
      await Promise.all([...gateways, ...subgraphs].map((service) => service.stop()));
      await redis?.stop();
      await store?.drop();
    });

    it('starts a second gateway and runs `npm run migrate` while the first runs: the first holds no lock', async () => {
      expect(await advisoryLocks(store.databases.live)).toBe(0);
      expect(await advisoryLocks(store.databases.sandbox)).toBe(0);
      const [second, migrate] = await Promise.all([
        startServiceProcess('gateway/main.ts', [], env, GATEWAY_READY),
        runScript('scripts/migrate.ts', [], commandEnvironment(env)),
      ]);
      gateways.push(second);
      const output = migrate.stdout + migrate.stderr;
      expect(migrate.code, output).toBe(0);
      expect(output).toContain('live: up to date');
      expect(output).toContain('sandbox: up to date');
      for (const gateway of gateways) expect((await call(gateway, '/readyz')).status).toBe(200);
      // Four services started on the empty sandbox; it was seeded once.
      const [seeded] = await store.databases.sandbox.sql.query<{ count: string }>(
        'SELECT count(*) AS count FROM companies',
      );
      expect(Number(seeded!.count)).toBe(10);
    }, 180_000);

    it('answers a federated query through either gateway', async () => {
      const { key } = await newKey('institutional', 'sandbox');
      for (const gateway of gateways) {
        const response = await call(gateway, '/graphql', {
          key,
          body: { query: '{ companies(perPage: 1) { nodes { id name } } }' },
        });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.data.companies.nodes).toHaveLength(1);
      }
    });

    it('keeps the per-minute limit exact across both gateways (Redis)', async () => {
      const { key } = await newKey('analyst', 'live');
      // A sliding minute per account, counted in Redis: a burst split across both gateways sees one limit.
      const extra = 12;
      const statuses = await Promise.all(
        Array.from({ length: ANALYST_PER_MINUTE + extra }, (_, i) =>
          call(gateways[i % 2]!, '/api/signals?limit=1', { key }),
        ),
      ).then((responses) => responses.map((response) => response.status));
      expect(statuses.filter((status) => status === 200)).toHaveLength(ANALYST_PER_MINUTE);
      expect(statuses.filter((status) => status === 429)).toHaveLength(extra);
    });

    it('spends a sandbox key’s credits exactly once across both gateways', async () => {
      const { key } = await newKey('institutional', 'sandbox');
      const responses = await Promise.all(
        Array.from({ length: SANDBOX_CREDITS + 9 }, (_, i) => call(gateways[i % 2]!, '/api/signals?limit=1', { key })),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(SANDBOX_CREDITS);
      const refused = responses.filter((response) => response.status === 403);
      expect(refused).toHaveLength(9);
      expect(refused[0]!.body.redirect).toBe('/billing');
    });

    it('verifies a session token issued by one gateway on the other (shared JWT_SECRETS)', async () => {
      const account = await createAccount(
        store.databases.live,
        'professional',
        `ops-${randomBytes(4).toString('hex')}@example.com`,
      );
      await store.databases.live.prisma.account.update({
        where: { id: account.id },
        data: { passwordHash: await hashPassword('a long enough password') },
      });
      const login = await call(gateways[0]!, '/api/auth/login', {
        body: { email: account.email, password: 'a long enough password' },
      });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      const keys = await call(gateways[1]!, '/api/keys', { token: login.body.token });
      expect(keys.status, JSON.stringify(keys.body)).toBe(200);
    });

    it('runs each report job once, in the verticals service, and either gateway serves its file', async () => {
      const { key } = await newKey('professional', 'sandbox');
      const queued = await Promise.all(
        [0, 1, 0, 1].map((i) =>
          call(gateways[i]!, '/api/v1/reports/generate', { key, body: { vertical: 'b2b', format: 'csv' } }),
        ),
      );
      const ids = queued.map((response) => {
        expect(response.status, JSON.stringify(response.body)).toBe(202);
        return response.body.data.id as string;
      });
      const numbers = ids.map((id) => Number(id.replace('rpt_', '')));
      const done = async () =>
        store.databases.sandbox.sql.query<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM report_jobs WHERE id = ANY($1::int[])',
          [numbers],
        );
      for (let polls = 0; (await done()).some((job) => job.status !== 'completed') && polls < 60; polls++)
        await sleep(500);
      expect(await done()).toEqual(numbers.map(() => ({ status: 'completed', attempts: 1 })));
      // The worker runs in the verticals service only: every file is in its DATA_DIR, none in the gateways'.
      for (const id of ids) expect(existsSync(join(verticalsDataDir, 'reports', 'sandbox', `${id}.csv`))).toBe(true);
      expect(existsSync(join(env.DATA_DIR!, 'reports'))).toBe(false);
      for (const [i, id] of ids.entries()) {
        // Made through one gateway, downloaded through the other, which forwards to the verticals service.
        const download = await call(gateways[(i + 1) % 2]!, `/api/v1/reports/${id}/download`, { key });
        expect(download.status).toBe(200);
        expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${id}.csv"`);
        // The header and the ten seeded companies.
        const lines = String(download.body).trim().split('\n');
        expect(lines[0]).toMatch(/^id,company,/);
        expect(lines).toHaveLength(11);
      }
    }, 60_000);

    it('stops every process cleanly, and the usage both gateways counted is written exactly', async () => {
      const { key, accountId } = await newKey('institutional', 'live');
      const calls = 14;
      const statuses = await Promise.all(
        Array.from({ length: calls }, (_, i) => call(gateways[i % 2]!, '/api/signals?limit=1', { key })),
      ).then((responses) => responses.map((response) => response.status));
      expect(statuses).toEqual(Array(calls).fill(200));
      // Live counts live in each gateway's memory until a flush; stopping flushes them.
      const codes = await Promise.all([...gateways, ...subgraphs].map((service) => service.stop()));
      expect(codes).toEqual([0, 0, 0, 0]);
      const [usage] = await store.databases.live.sql.query<{ calls: number }>(
        "SELECT calls FROM usage_counters WHERE account_id = $1::uuid AND mode = 'live'",
        [accountId],
      );
      expect(usage?.calls).toBe(calls);
      const [keyRow] = await store.databases.live.sql.query<{ calls_used: number }>(
        'SELECT calls_used FROM api_keys WHERE account_id = $1::uuid',
        [accountId],
      );
      expect(keyRow?.calls_used).toBe(calls);
    }, 60_000);
  });
}
