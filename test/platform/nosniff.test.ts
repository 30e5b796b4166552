import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPH_SECRET_HEADER } from '../../subgraphs/platform/http/subgraph-protocol.ts';
import { createSubgraphServer as createMarkets } from '../../subgraphs/markets/server.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

const SECRET = 'a-shared-secret-of-the-gateway';

type Call = [method: string, path: string, options: Parameters<TestService['request']>[2], status: number];

/** Every answer tells the browser not to guess its type (gateway/http/, subgraphs/platform/http/nosniff.ts). */
describe('X-Content-Type-Options: nosniff', () => {
  let service: TestService;
  let key: string;
  beforeAll(async () => {
    service = await startTestService({
      sandboxScale: 0,
      server: { reportWorker: { pollMs: 50 }, metricsToken: 'metrics-token-for-tests-0123456789' },
    });
    key = (await service.createKey({ plan: 'institutional', mode: 'live' })).key;
  });
  afterAll(() => service?.stop());

  const linked = (html: string, prefix: string) =>
    [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).filter((path) => path.startsWith(prefix));

  it('is on every gateway answer: JSON, pages, files, GraphQL, errors and 404s', async () => {
    const dashboard = (await service.request('GET', '/account')).text;
    const graphiql = (await service.request('GET', '/graphql', { headers: { accept: 'text/html' } })).text;
    const assets = [...linked(dashboard, '/account/assets/'), ...linked(graphiql, '/graphql/assets/')];
    expect(assets.length).toBeGreaterThan(1);

    const calls: Call[] = [
      ['GET', '/healthz', {}, 200],
      ['GET', '/api/signals', { key }, 200],
      ['GET', '/api/signals', {}, 401],
      ['GET', '/api/signals?limit=nope', { key }, 400],
      ['GET', '/api/no-such-route', { key }, 404],
      ['DELETE', '/api/signals', { key }, 405],
      ['GET', '/api/v1/reports/rpt_999999/download', { key }, 404],
      ['POST', '/api/auth/login', { body: { email: 'x' } }, 400],
      ['POST', '/graphql', { key, body: { query: '{ __typename }' } }, 200],
      ['POST', '/graphql', { key, body: { query: '{ nope }' } }, 400],
      ['GET', '/graphql', { headers: { accept: 'text/html' } }, 200],
      ['GET', '/account', {}, 200],
      ['GET', '/billing', {}, 200],
      ['GET', '/account/api/session', {}, 200],
      ['GET', '/account/api/keys', {}, 401],
      ['POST', '/account/api/login', { body: {} }, 403],
      ['GET', '/account/assets/0/missing.js', {}, 404],
      ['GET', '/openapi.json', {}, 200],
      ['GET', '/docs', {}, 200],
      ['GET', '/metrics', {}, 401],
      ...assets.map((path): Call => ['GET', path, {}, 200]),
    ];
    for (const [method, path, options, status] of calls) {
      const response = await service.request(method, path, options);
      expect(response.status, `${method} ${path}: ${response.text.slice(0, 200)}`).toBe(status);
      expect(response.headers.get('x-content-type-options'), `${method} ${path}`).toBe('nosniff');
    }
  });

  it('is on a report download', async () => {
    const queued = await service.request('POST', '/api/v1/reports/generate', {
      key,
      body: { vertical: 'realestate', format: 'csv' },
    });
    expect(queued.status, queued.text).toBe(202);
    const { id } = queued.body.data as { id: string };
    await expect
      .poll(async () => (await service.request('GET', `/api/v1/reports/${id}`, { key })).body.data.status, {
        timeout: 30_000,
        interval: 100,
      })
      .toBe('completed');
    const file = await service.request('GET', `/api/v1/reports/${id}/download`, { key });
    expect(file.status).toBe(200);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('a subgraph as its own HTTP service', () => {
  let markets: FastifyInstance;
  let url: string;
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ sandboxScale: 0 });
    markets = await createMarkets({ databases: service.databases, secret: SECRET });
    await markets.listen({ port: 0, host: '127.0.0.1' });
    const address = markets.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await markets?.close();
    await service?.stop();
  });

  it('sends nosniff on its answers and refusals', async () => {
    const query = JSON.stringify({ query: '{ __typename }' });
    const json = { 'content-type': 'application/json' };
    for (const [path, init, status] of [
      ['/healthz', {}, 200],
      ['/graphql', { method: 'POST', body: query, headers: json }, 401],
      ['/graphql', { method: 'POST', body: query, headers: { ...json, [SUBGRAPH_SECRET_HEADER]: SECRET } }, 200],
      ['/nowhere', { headers: { [SUBGRAPH_SECRET_HEADER]: SECRET } }, 404],
    ] as const) {
      const response = await fetch(`${url}${path}`, init);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
