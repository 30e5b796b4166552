import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { createServer } from '../../gateway/server.ts';
import type { ServerOptions } from '../../gateway/server.ts';
import type { Plan } from '../../subgraphs/platform/context.ts';
import { createSubgraphServer as createMarkets } from '../../subgraphs/markets/server.ts';
import { createSubgraphServer as createVerticals } from '../../subgraphs/verticals/server.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { startSilentServer } from '../support/silent-server.ts';

/**
 * The report download with verticals as its own service: the gateway checks the plan and forwards, the
 * verticals service runs the worker and reads the file, and the client sees what the one-process route sends.
 */
const SECRET = 'a-shared-secret-of-the-gateway';
const WORKER = { pollMs: 100, staleAfterMs: 1500, batchSize: 7 };
const FILE_HEADERS = ['content-type', 'content-length', 'content-disposition'];

const portOf = (app: FastifyInstance) => {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
};
const urlOf = (port: number) => `http://127.0.0.1:${port}/graphql`;

describe('the report download with verticals as its own service', () => {
  let store: TestDatabases;
  let verticalsDir: string;
  let verticals: FastifyInstance;
  let markets: FastifyInstance;
  /** Verticals in this process: the route as it always was. */
  let local: FastifyInstance;
  /** Verticals reached by URL: the forwarded route. */
  let remote: FastifyInstance;
  const extra: FastifyInstance[] = [];

  const gatewayTo = async (verticalsUrl: string, options: Omit<ServerOptions, 'databases'> = {}) => {
    const app = await createServer({
      databases: store.databases,
      subgraphUrls: { verticals: verticalsUrl, markets: urlOf(portOf(markets)) },
      gatewaySecret: SECRET,
      ...options,
    });
    await app.ready();
    return app;
  };
  const newKey = async (plan: Plan = 'professional') => {
    const account = await createAccount(store.databases.live, plan);
    return { accountId: account.id, key: (await createApiKey(store.databases.live, account.id, 'sandbox')).key };
  };
  const get = (app: FastifyInstance, url: string, key?: string) =>
    app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const completed = async (app: FastifyInstance, key: string, body: Record<string, unknown>) => {
    const queued = await app.inject({
      method: 'POST',
      url: '/api/v1/reports/generate',
      headers: { authorization: `Bearer ${key}` },
      payload: body,
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const id: string = queued.json().data.id;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = await store.databases.sandbox.prisma.reportJob.findUniqueOrThrow({
        where: { id: Number(id.slice(4)) },
      });
      if (job.status === 'completed') return id;
      if (job.status === 'failed' || Date.now() > deadline) throw new Error(`report ${id}: ${JSON.stringify(job)}`);
      await sleep(50);
    }
  };
  const sameAnswer = (forwarded: LightMyRequestResponse, direct: LightMyRequestResponse) => {
    expect(forwarded.statusCode).toBe(direct.statusCode);
    for (const name of FILE_HEADERS) expect(forwarded.headers[name], name).toEqual(direct.headers[name]);
    expect(forwarded.rawPayload.equals(direct.rawPayload)).toBe(true);
  };

  beforeAll(async () => {
    store = await createTestDatabases({ sandboxScale: 30 });
    verticalsDir = await mkdtemp(join(tmpdir(), 'verticals-service-'));
    verticals = await createVerticals({
      databases: store.databases,
      secret: SECRET,
      dataDir: verticalsDir,
      reportWorker: WORKER,
    });
    markets = await createMarkets({ databases: store.databases, secret: SECRET });
    for (const app of [verticals, markets]) await app.listen({ port: 0, host: '127.0.0.1' });
    // Same databases and files; it never listens, so it runs no worker of its own.
    local = await createServer({ databases: store.databases, dataDir: verticalsDir });
    remote = await gatewayTo(urlOf(portOf(verticals)), { dataDir: join(verticalsDir, 'not-here') });
  });
  afterAll(async () => {
    for (const app of [remote, local, ...extra, markets, verticals]) await app?.close();
    await store?.drop();
    if (verticalsDir) await rm(verticalsDir, { recursive: true, force: true });
  });

  it('streams the file the verticals service wrote: status, headers and bytes as the one-process route', async () => {
    const { key } = await newKey();
    const csv = await completed(remote, key, { vertical: 'legal', record_type: 'firms', format: 'csv' });
    const json = await completed(remote, key, {
      vertical: 'b2b',
      format: 'json',
      fields: ['id', 'company', 'revenue'],
    });
    expect(existsSync(join(verticalsDir, 'reports', 'sandbox', `${csv}.csv`))).toBe(true);
    for (const [id, type] of [
      [csv, 'text/csv'],
      [json, 'application/json'],
    ]) {
      const forwarded = await get(remote, `/api/v1/reports/${id}/download`, key);
      expect(forwarded.statusCode).toBe(200);
      expect(forwarded.headers['content-type']).toContain(type);
      expect(forwarded.rawPayload.length).toBeGreaterThan(100);
      sameAnswer(forwarded, await get(local, `/api/v1/reports/${id}/download`, key));
    }
  });

  it('answers every refusal with the one-process route’s status and body', async () => {
    const owner = await newKey();
    const other = await newKey();
    const analyst = await newKey('analyst');
    const id = await completed(remote, owner.key, { vertical: 'realestate' });
    const failed = await store.databases.sandbox.prisma.reportJob.create({
      data: {
        accountId: owner.accountId,
        vertical: 'b2b',
        recordType: 'companies',
        filters: {},
        format: 'csv',
        fields: [],
        status: 'failed',
      },
    });
    const cases: [string, string | undefined, number][] = [
      [`/api/v1/reports/${id}/download`, other.key, 404],
      ['/api/v1/reports/rpt_999999/download', owner.key, 404],
      ['/api/v1/reports/banana/download', owner.key, 400],
      [`/api/v1/reports/rpt_${failed.id}/download`, owner.key, 409],
      [`/api/v1/reports/${id}/download`, analyst.key, 403],
      [`/api/v1/reports/${id}/download`, undefined, 401],
    ];
    for (const [url, key, status] of cases) {
      const forwarded = await get(remote, url, key);
      expect(forwarded.statusCode, `${url}: ${forwarded.body}`).toBe(status);
      expect(forwarded.json()).toEqual((await get(local, url, key)).json());
      expect(forwarded.headers['content-type']).toContain('application/json');
    }
  });

  it('runs no report worker in a gateway that reaches verticals by URL', async () => {
    const { accountId } = await newKey();
    const listening = await gatewayTo(urlOf(portOf(verticals)), { reportWorker: WORKER });
    extra.push(listening);
    await listening.listen({ port: 0, host: '127.0.0.1' });
    await verticals.close();
    const job = await store.databases.sandbox.prisma.reportJob.create({
      data: { accountId, vertical: 'b2b', recordType: 'companies', filters: {}, format: 'csv', fields: [] },
    });
    await sleep(WORKER.pollMs * 15);
    expect((await store.databases.sandbox.prisma.reportJob.findUniqueOrThrow({ where: { id: job.id } })).status).toBe(
      'queued',
    );
    await store.databases.sandbox.prisma.reportJob.delete({ where: { id: job.id } });
  });

  it('answers 503 service_unavailable while the verticals service is down', async () => {
    const { key } = await newKey();
    const response = await get(remote, '/api/v1/reports/rpt_1/download', key);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'service_unavailable',
      message: 'The verticals service is not reachable. Try again shortly.',
    });
  });

  describe('a verticals service that accepts connections but never answers', () => {
    let silent: Awaited<ReturnType<typeof startSilentServer>>;
    beforeAll(async () => {
      silent = await startSilentServer();
    });
    afterAll(() => silent.close());

    it('is cut off after SUBGRAPH_TIMEOUT_MS: 503 service_unavailable', async () => {
      const app = await gatewayTo(urlOf(silent.port), { subgraphTimeoutMs: 1_000 });
      extra.push(app);
      const { key } = await newKey();
      const started = performance.now();
      const response = await get(app, '/api/v1/reports/rpt_1/download', key);
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toBe('service_unavailable');
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  });
});
