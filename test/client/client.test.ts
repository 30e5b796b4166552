/**
 * The typed client (client/) against the running service: typed answers for a public and a keyed route, the
 * service's error body as `error`, and the README's example script. The `@ts-expect-error` lines are checked by
 * `tsc` (npm run typecheck): a wrong parameter name or enum value must not compile, and the service refuses both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataGraphClient } from '../../client/index.ts';
import type { DataGraphClient, components } from '../../client/index.ts';
import { runScript } from '../support/child-process.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let client: DataGraphClient;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 0 });
  ({ key } = await service.createKey({ mode: 'sandbox' }));
  client = createDataGraphClient({ baseUrl: service.url, apiKey: key });
  const signal = (ticker: string, signalType: string, minutesAgo: number) => ({
    ticker,
    companyName: `${ticker} Inc.`,
    signalType,
    filingType: signalType === 'sec_filing' ? '8-K' : '4',
    aiSummary: `${ticker}: ${signalType} ${minutesAgo} minutes ago.`,
    materialityScore: 60,
    sentiment: 'NEUTRAL',
    urgent: false,
    sourceUrl: `https://www.sec.gov/${ticker}/${minutesAgo}`,
    sourceKey: `client-test-${ticker}-${minutesAgo}`,
    createdAt: new Date(Date.now() - minutesAgo * 60_000),
  });
  await service.databases.sandbox.prisma.signal.createMany({
    data: [signal('ACME', 'sec_filing', 5), signal('ACME', 'insider_buy', 10), signal('GLOBEX', 'sec_filing', 15)],
  });
});
afterAll(async () => {
  await service?.stop();
});

describe('the typed client against the service', () => {
  it('reads a public route without a key', async () => {
    const anonymous = createDataGraphClient({ baseUrl: service.url });
    const { data, error, response } = await anonymous.GET('/api/stats/public');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const signals7d: number = data!.signals_7d;
    expect(typeof signals7d).toBe('number');
  });

  it('sends the key and returns the typed list, filtered by typed parameters', async () => {
    const { data, error } = await client.GET('/api/signals', {
      params: { query: { ticker: 'ACME', signal_type: 'sec_filing', limit: 10 } },
    });
    expect(error).toBeUndefined();
    const signals: components['schemas']['Signal'][] = data!.signals;
    expect(signals.map((signal) => [signal.ticker, signal.signal_type])).toEqual([['ACME', 'sec_filing']]);
    expect(signals[0]!.ai_summary).toBe('ACME: sec_filing 5 minutes ago.');
    expect(data!.total).toBe(1);
  });

  it('pages with page and limit', async () => {
    const first = await client.GET('/api/signals', { params: { query: { page: 1, limit: 2 } } });
    const second = await client.GET('/api/signals', { params: { query: { page: 2, limit: 2 } } });
    expect(first.data!.signals.map((signal) => signal.ticker)).toEqual(['ACME', 'ACME']);
    expect(second.data!.signals.map((signal) => signal.ticker)).toEqual(['GLOBEX']);
    expect(first.data).toMatchObject({ total: 3, pages: 2, page: 1 });
  });

  it("returns the service's error body as `error` for a refused key", async () => {
    const unknownKey = createDataGraphClient({ baseUrl: service.url, apiKey: 'sk_test_not-a-key' });
    const { data, error, response } = await unknownKey.GET('/api/watchlist');
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ error: 'unauthorized' });
  });

  it('does not compile a wrong parameter name or enum value, and the service refuses both', async () => {
    const wrongName = await client.GET('/api/signals', {
      // @ts-expect-error: `tickr` is not a parameter of GET /api/signals.
      params: { query: { tickr: 'ACME' } },
    });
    expect(wrongName.response.status).toBe(400);
    expect(wrongName.error).toMatchObject({ error: 'invalid_parameter', details: { tickr: expect.any(String) } });

    const wrongEnum = await client.GET('/api/signals', {
      // @ts-expect-error: `insider_buying` is not a signal type.
      params: { query: { signal_type: 'insider_buying' } },
    });
    expect(wrongEnum.response.status).toBe(400);
    expect(wrongEnum.error).toMatchObject({ error: 'invalid_parameter' });
  });

  it("runs the README's example script against the service", async () => {
    const env = { ...process.env, DATA_GRAPH_URL: service.url, DATA_GRAPH_API_KEY: key };
    const run = await runScript('client/example.ts', ['ACME'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 signals');
    expect(run.stdout).toContain('ACME ACME: sec_filing 5 minutes ago.');
  });
});
