import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { symbols } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRequestId, requestIdOptions } from '../../subgraphs/platform/http/request-id.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

const ORIGIN = 'https://app.example.com';
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The bytes as they came over the wire (fetch would decode them), with the status and headers. */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end(JSON.stringify(body));
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('HTTP basics', () => {
  let service: TestService;
  let plain: TestService;
  let key: string;
  beforeAll(async () => {
    service = await startTestService({
      sandboxScale: 0,
      // Live counts stay unwritten until the test flushes them, so the meter's backlog is exact.
      server: {
        corsOrigins: [ORIGIN, 'http://localhost:5173'],
        metricsToken: METRICS_TOKEN,
        usageFlushIntervalMs: 3_600_000,
      },
    });
    plain = await startTestService({ sandboxScale: 0 });
    key = (await service.createKey()).key;
  }, 600_000);
  afterAll(async () => {
    await service?.stop();
    await plain?.stop();
  });

  describe('request ids', () => {
    it('generates a UUID for each request and returns it in x-request-id, errors included', async () => {
      const first = await service.request('GET', '/healthz');
      const second = await service.request('GET', '/healthz');
      expect(first.headers.get('x-request-id')).toMatch(UUID);
      expect(second.headers.get('x-request-id')).toMatch(UUID);
      expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
      for (const response of [
        await service.request('GET', '/api/signals'),
        await service.request('GET', '/no/such/route'),
      ]) {
        expect([401, 404]).toContain(response.status);
        expect(response.headers.get('x-request-id')).toMatch(UUID);
      }
    });

    it("echoes a caller's sane id and replaces one that is too long or has odd characters", async () => {
      const given = 'trace-01HZX3.abc:42_Z';
      expect(
        (await service.request('GET', '/healthz', { headers: { 'x-request-id': given } })).headers.get('x-request-id'),
      ).toBe(given);
      const authenticated = await service.request('GET', '/api/signals?limit=1', {
        key,
        headers: { 'x-request-id': given },
      });
      expect(authenticated.status).toBe(200);
      expect(authenticated.headers.get('x-request-id')).toBe(given);
      for (const bad of ['x'.repeat(129), 'has space', 'semi;colon', '<script>', 'ünï']) {
        const echoed = (
          await service.request('GET', '/healthz', {
            headers: { 'x-request-id': encodeURI(bad) === bad ? bad : bad.replace(/[^\x20-\x7e]/g, '?') },
          })
        ).headers.get('x-request-id');
        expect(echoed, bad).toMatch(UUID);
      }
    });

    it('puts the id on lines the shared logger writes while the request runs, after its body was read, and only there', async () => {
      const lines: string[] = [];
      const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, ...requestIdOptions });
      registerRequestId(app);
      app.post('/echo', async (request) => {
        logger.warn({ size: JSON.stringify(request.body).length }, 'shared logger inside a handler');
        request.log.warn('request logger inside a handler');
        return { ok: true };
      });
      const stream = (logger as unknown as Record<symbol, unknown>)[symbols.streamSym];
      const level = logger.level;
      Object.assign(logger, { [symbols.streamSym]: { write: (line: string) => lines.push(line) } });
      logger.level = 'warn';
      try {
        const response = await app.inject({
          method: 'POST',
          url: '/echo',
          headers: { 'x-request-id': 'req-42' },
          payload: { hello: 'world'.repeat(1000) },
        });
        expect(response.headers['x-request-id']).toBe('req-42');
        logger.warn('outside any request');
      } finally {
        Object.assign(logger, { [symbols.streamSym]: stream });
        logger.level = level;
        await app.close();
      }
      const parsed = lines.map((line) => JSON.parse(line) as { msg: string; reqId?: string });
      expect(parsed.find((line) => line.msg === 'shared logger inside a handler')?.reqId).toBe('req-42');
      const own = lines.find((line) => line.includes('request logger inside a handler'))!;
      // Fastify's request logger names the request once, not twice.
      expect(own.match(/"reqId"/g)).toHaveLength(1);
      expect(JSON.parse(own).reqId).toBe('req-42');
      expect(parsed.find((line) => line.msg === 'outside any request')).not.toHaveProperty('reqId');
    });
  });

  describe('compression', () => {
    // Introspection answers a large JSON document; a one-field query a small one.
    const LARGE = { query: '{ __schema { types { name kind fields { name } } } }' };
    const SMALL = { query: '{ __typename }' };
    const post = (body: unknown, encoding?: string) =>
      rawPost(
        `${service.url}/graphql`,
        { authorization: `Bearer ${key}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
        body,
      );

    it.each([
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const)(
      'sends a large JSON answer %s-encoded when asked, the same JSON once decoded',
      async (encoding, decode) => {
        const identity = await post(LARGE, 'identity');
        expect(identity.status).toBe(200);
        expect(identity.headers['content-encoding']).toBeUndefined();
        expect(identity.body.length).toBeGreaterThan(1024);

        const encoded = await post(LARGE, encoding);
        expect(encoded.status).toBe(200);
        expect(encoded.headers['content-encoding']).toBe(encoding);
        expect(encoded.headers.vary).toMatch(/accept-encoding/i);
        expect(encoded.body.length).toBeLessThan(identity.body.length / 2);
        expect(JSON.parse(decode(encoded.body).toString('utf8'))).toEqual(JSON.parse(identity.body.toString('utf8')));
      },
    );

    it('prefers brotli when both are accepted, and leaves bodies under 1 kB and clients that ask for nothing alone', async () => {
      const both = await post(LARGE, 'gzip, deflate, br');
      expect(both.headers['content-encoding']).toBe('br');
      const none = await post(LARGE);
      expect(none.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(none.body.toString('utf8')).data.__schema.types.length).toBeGreaterThan(10);

      const small = await post(SMALL, 'gzip, br');
      expect(small.status).toBe(200);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(small.body.toString('utf8'))).toEqual({ data: { __typename: 'Query' } });
    });
  });

  describe('CORS', () => {
    it('lets a listed origin read responses and the documented headers', async () => {
      const response = await service.request('GET', '/api/signals?limit=1', { key, headers: { origin: ORIGIN } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/);
      for (const header of [
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'retry-after',
        'x-usage-calls',
        'x-usage-remaining',
        'x-request-id',
      ]) {
        expect(exposed).toContain(header);
      }
      expect(response.headers.get('vary')).toMatch(/origin/i);
    });

    it("answers a listed origin's preflight without a credential, allowing Authorization and Content-Type", async () => {
      const preflight = await service.request('OPTIONS', '/api/v1/leads', {
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      const allowedHeaders = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
      expect(allowedHeaders).toContain('authorization');
      expect(allowedHeaders).toContain('content-type');
      expect(preflight.headers.get('x-request-id')).toMatch(UUID);
    });

    it('gives other origins, and every origin when none is configured, no CORS header at all', async () => {
      const checks = [
        await service.request('GET', '/api/signals?limit=1', { key, headers: { origin: 'https://evil.example' } }),
        await service.request('OPTIONS', '/api/signals', {
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
        }),
        await service.request('GET', '/api/signals?limit=1', { key, headers: { origin: `${ORIGIN}.evil.example` } }),
        await plain.request('GET', '/healthz', { headers: { origin: ORIGIN } }),
        await plain.request('OPTIONS', '/api/signals', {
          headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
        }),
      ];
      for (const response of checks) {
        const cors = [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
        expect(cors).toEqual([]);
      }
      expect(checks[1]!.status).toBeGreaterThanOrEqual(400);
      expect(checks[4]!.status).toBeGreaterThanOrEqual(400);
    });
  });

  describe('405', () => {
    it('answers a known path with a wrong method with 405, Allow and our error body', async () => {
      const response = await service.request('DELETE', '/api/signals', { key });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.body).toEqual({ error: 'method_not_allowed', message: expect.stringContaining('DELETE') });

      const lead = await service.request('PUT', '/api/v1/leads/lead_1', { key, body: {} });
      expect(lead.status).toBe(405);
      expect(lead.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');

      const withQuery = await plain.request('POST', '/api/congressional-trades?days=5');
      expect(withQuery.status).toBe(405);
      expect(withQuery.headers.get('allow')).toBe('GET, HEAD');
    });

    it('keeps 404 for paths no route has', async () => {
      const response = await service.request('DELETE', '/api/nothing-here', { key });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
      expect(response.headers.get('allow')).toBeNull();
    });
  });

  describe('/metrics', () => {
    const scrape = (authorization?: string) =>
      service.request('GET', '/metrics', { headers: authorization ? { authorization } : {} });

    it('refuses a missing or wrong token with 401, and does not exist when no token is configured', async () => {
      for (const authorization of [
        undefined,
        'Bearer wrong-token',
        `Bearer ${METRICS_TOKEN}x`,
        METRICS_TOKEN,
        `Bearer ${key}`,
      ]) {
        const response = await scrape(authorization);
        expect(response.status, authorization).toBe(401);
        expect(response.body.error).toBe('unauthorized');
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
      }
      const absent = await plain.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(absent.status).toBe(404);
    });

    it('reports requests by route and status, latency, refusals, pools, the report queue and the usage backlog', async () => {
      const live = (await service.createKey({ mode: 'live' })).key;
      await service.request('GET', '/api/signals?limit=1', { key: live });
      await service.request('GET', '/api/signals?limit=1', { key: live });
      await service.request('DELETE', '/api/signals', { key });
      // The 11th failed login for one address in a minute is refused (429).
      for (let attempt = 0; attempt < 11; attempt++) {
        await service.request('POST', '/api/auth/login', {
          body: { email: 'nobody@example.com', password: 'wrong password' },
        });
      }

      const response = await scrape(`Bearer ${METRICS_TOKEN}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      // Scrapes are not API calls: no rate-limit or usage headers.
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      const text = response.text;
      for (const family of [
        'http_requests_total',
        'http_request_duration_seconds',
        'rate_limit_refusals_total',
        'db_pool_connections',
        'report_queue_depth',
        'usage_meter_unflushed_calls',
        'usage_meter_oldest_unflushed_seconds',
      ]) {
        expect(text).toContain(`# TYPE ${family} `);
      }
      expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/signals",status="200"\} [1-9]/m);
      expect(text).toMatch(/^http_requests_total\{method="DELETE",route="\(unmatched\)",status="405"\} [1-9]/m);
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/signals"\} [1-9]/m);
      expect(text).toMatch(/^rate_limit_refusals_total\{route="\/api\/auth\/login"\} 1$/m);
      expect(text).toMatch(/^report_queue_depth\{database="live"\} \d+$/m);
      expect(text).toMatch(/^report_queue_depth\{database="sandbox"\} \d+$/m);
      expect(text).toMatch(/^usage_meter_unflushed_calls 2$/m);
      expect(Number(/^usage_meter_oldest_unflushed_seconds (\S+)$/m.exec(text)![1])).toBeGreaterThanOrEqual(0);
      if (service.databases.live.engine === 'postgres') {
        expect(text).toMatch(/^db_pool_connections\{database="live",state="total"\} [1-9]/m);
        expect(text).toMatch(/^db_pool_connections\{database="sandbox",state="waiting"\} 0$/m);
      } else {
        expect(text).not.toMatch(/^db_pool_connections\{/m);
      }

      await service.app.usageMeter.flush();
      const flushed = (await scrape(`Bearer ${METRICS_TOKEN}`)).text;
      expect(flushed).toMatch(/^usage_meter_unflushed_calls 0$/m);
      expect(flushed).toMatch(/^usage_meter_oldest_unflushed_seconds 0$/m);
    });

    it('counts queued report jobs from the database when scraped', async () => {
      const before = await service.databases.sandbox.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM report_jobs WHERE status = 'queued'",
      );
      expect(before[0]!.n).toBe(0);
      const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).text;
      expect(text).toMatch(/^report_queue_depth\{database="sandbox"\} 0$/m);
    });
  });
});
