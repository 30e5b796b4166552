import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { createServer } from '../../gateway/server.ts';
import { SUBGRAPH_SECRET_HEADER, VIEWER_HEADER } from '../../subgraphs/platform/http/subgraph-protocol.ts';
import { createSubgraphServer as createMarkets } from '../../subgraphs/markets/server.ts';
import { createSubgraphServer as createVerticals } from '../../subgraphs/verticals/server.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

const SECRET = 'a-shared-secret-of-the-gateway';
const DAY = 86_400_000;

function urlOf(app: FastifyInstance) {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
}

describe('subgraphs as separate services', () => {
  let store: TestDatabases;
  const apps: FastifyInstance[] = [];
  let gateway: FastifyInstance;
  let marketsUrl: string;

  beforeAll(async () => {
    store = await createTestDatabases();
    const markets = await createMarkets({ databases: store.databases, secret: SECRET });
    const verticals = await createVerticals({ databases: store.databases, secret: SECRET });
    for (const app of [markets, verticals]) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
    marketsUrl = urlOf(markets);
    gateway = await createServer({
      databases: store.databases,
      subgraphUrls: { markets: marketsUrl, verticals: urlOf(verticals) },
      gatewaySecret: SECRET,
    });
    apps.push(gateway);
    // One recent and one 30-day-old signal in the live database: the analyst plan sees 7 days of history.
    for (const [index, age] of [
      [1, 2 * DAY],
      [2, 30 * DAY],
    ] as const) {
      await store.databases.live.prisma.signal.create({
        data: {
          ticker: 'ACME',
          companyName: 'Acme',
          signalType: 'sec_filing',
          filingType: '8-K',
          aiSummary: 'summary',
          materialityScore: 50,
          sentiment: 'NEUTRAL',
          urgent: false,
          sourceUrl: 'https://example.com',
          sourceKey: `test-${index}`,
          createdAt: new Date(Date.now() - age),
        },
      });
    }
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await store?.drop();
  });

  const direct = (headers: Record<string, string>) =>
    fetch(marketsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ signals(limit: 10) { nodes { id } } }' }),
    });

  it('refuses requests without the shared secret or with a wrong one, with a JSON 401', async () => {
    for (const headers of [
      {},
      { [SUBGRAPH_SECRET_HEADER]: 'wrong' },
      { [SUBGRAPH_SECRET_HEADER]: `${SECRET}x` },
    ] as Record<string, string>[]) {
      const response = await direct({
        ...headers,
        [VIEWER_HEADER]: JSON.stringify({
          accountId: '00000000-0000-0000-0000-000000000001',
          plan: 'institutional',
          mode: 'live',
        }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: 'unauthorized',
        message: 'This subgraph answers only its gateway.',
      });
    }
  });

  it('refuses a malformed viewer header even with the secret', async () => {
    const response = await direct({ [SUBGRAPH_SECRET_HEADER]: SECRET, [VIEWER_HEADER]: '{"plan":"institutional"}' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_parameter');
  });

  it('answers the gateway, taking the identity from the gateway, not from a forged client header', async () => {
    const account = await createAccount(store.databases.live, 'analyst');
    const { key } = await createApiKey(store.databases.live, account.id, 'live');
    const forged = JSON.stringify({ accountId: account.id, plan: 'institutional', mode: 'live' });
    const response = await gateway.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${key}`,
        [VIEWER_HEADER]: forged,
        [SUBGRAPH_SECRET_HEADER]: SECRET,
        'content-type': 'application/json',
      },
      payload: { query: '{ signals(limit: 10) { nodes { ticker createdAt } } }' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const nodes = response.json().data.signals.nodes as { createdAt: string }[];
    expect(nodes).toHaveLength(1);
    expect(Date.now() - Date.parse(nodes[0]!.createdAt)).toBeLessThan(7 * DAY);

    // The same query as an institutional account through the gateway sees the full history.
    const other = await createAccount(store.databases.live, 'institutional');
    const institutional = await createApiKey(store.databases.live, other.id, 'live');
    const full = await gateway.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${institutional.key}`, 'content-type': 'application/json' },
      payload: { query: '{ signals(limit: 10) { nodes { createdAt } } }' },
    });
    expect(full.json().data.signals.nodes).toHaveLength(2);
  });

  it('still refuses unauthenticated callers at the gateway, whatever headers they send', async () => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        [VIEWER_HEADER]: JSON.stringify({
          accountId: '00000000-0000-0000-0000-000000000001',
          plan: 'institutional',
          mode: 'live',
        }),
        [SUBGRAPH_SECRET_HEADER]: SECRET,
        'content-type': 'application/json',
      },
      payload: { query: '{ signals { nodes { id } } }' },
    });
    expect(response.statusCode).toBe(401);
  });
});
