import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { revokeKey } from '../../gateway/auth/key-actions.ts';
import { createLimits } from '../../gateway/limits/limits.ts';
import { PROTOCOL_MESSAGE_BUDGET } from '../../gateway/mcp/route.ts';
import { createServer } from '../../gateway/server.ts';
import { REQUESTS_PER_MINUTE } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { rpc, sendMcp } from '../abuse/mcp-requests.ts';
import { connectMcp, resultText } from '../support/mcp-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
const clients: Client[] = [];

beforeAll(async () => {
  service = await startTestService({
    sandboxScale: 200,
    server: { limits: createLimits({ scheme: 'B', sandboxCredits: 40 }) },
  });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await service?.stop();
});

async function sandboxKey(plan: Plan = 'institutional', mode: 'sandbox' | 'live' = 'sandbox') {
  const account = await createAccount(service.databases.live, plan);
  const created = await createApiKey(service.databases.live, account.id, mode);
  return { ...created, accountId: account.id };
}

async function mcp(key: string, url = service.url) {
  const client = await connectMcp(url, key);
  clients.push(client);
  return client;
}

const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('errors are tool results with the REST error bodies', () => {
  it('gives invalid_parameter and not_found exactly as the REST route words them', async () => {
    const { key } = await sandboxKey();
    const client = await mcp(key);
    const refused = await callTool(client, 'congressional_trades', { limit: 'ten', chamber: 'moon' });
    expect(refused.isError).toBe(true);
    const rest = await service.get('/api/congressional-trades?limit=ten&chamber=moon', key);
    expect(rest.status).toBe(400);
    expect(resultText(refused)).toEqual(rest.body);
    expect((refused._meta as any).error).toEqual(rest.body);

    const missing = await callTool(client, 'records', { type: 'companies', id: 'biz_999999999' });
    const restMissing = await service.get('/api/v1/b2b/companies/biz_999999999', key);
    expect(restMissing.status).toBe(404);
    expect(resultText(missing)).toEqual(restMissing.body);

    const renamed = await callTool(client, 'ticker', { ticker: 'not a ticker!' });
    expect(resultText(renamed)).toMatchObject({ error: 'invalid_parameter', details: { ticker: expect.any(String) } });
  });

  it('answers a tool above the plan with plan_required and a structured upgrade_required naming the plan', async () => {
    const { key } = await sandboxKey('analyst');
    const result = await callTool(await mcp(key), 'convergence', {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toEqual({
      error: 'plan_required',
      message: 'The convergence tool requires the professional plan or higher; your plan is analyst.',
      redirect: '/billing',
      upgrade_required: { plan: 'professional', current_plan: 'analyst', url: '/billing' },
    });
    const tools = await (await mcp(key)).listTools();
    expect(tools.tools.find((tool) => tool.name === 'convergence')!.description).toMatch(
      /Requires the professional plan or higher\.$/,
    );
  });

  it('refuses the graphql tool a mutation, and runs its queries under the same plan rules', async () => {
    const { key } = await sandboxKey('analyst');
    const client = await mcp(key);
    const mutation = await callTool(client, 'graphql', {
      query: 'mutation { removeWatchlistEntry(ticker: "A") { removed } }',
    });
    expect(resultText(mutation)).toMatchObject({ error: 'invalid_parameter', details: { query: expect.any(String) } });
    const above = await callTool(client, 'graphql', { query: '{ convergence { leads { ticker } } }' });
    expect(resultText(above)).toMatchObject({ error: 'plan_required' });
  });
});

describe('costs in the open', () => {
  it('counts a tool call and a REST call of one key in one credit count and one rate limit', async () => {
    const { key } = await sandboxKey('analyst');
    const client = await mcp(key);
    const first = await callTool(client, 'signals', { limit: 1 });
    expect(first._meta).toMatchObject({
      request_id: expect.any(String),
      cost: { calls: 1 },
      usage: { mode: 'sandbox', calls: 1, allowance: 40, remaining: 39 },
      rate_limit: { limit: REQUESTS_PER_MINUTE.analyst, remaining: REQUESTS_PER_MINUTE.analyst - 1 },
    });
    const rest = await service.get('/api/signals?limit=1', key);
    expect(rest.headers.get('x-usage-remaining')).toBe('38');
    expect(rest.headers.get('x-ratelimit-remaining')).toBe(String(REQUESTS_PER_MINUTE.analyst - 2));
    const second = await callTool(client, 'signals', { limit: 1 });
    expect((second._meta as any).usage).toMatchObject({ calls: 3, remaining: 37 });
    expect((second._meta as any).rate_limit.remaining).toBe(REQUESTS_PER_MINUTE.analyst - 3);
    // tools/list, resources and prompts cost nothing.
    await client.listTools();
    await client.listResources();
    // Three calls, and the usage route's own.
    const usage = await service.get('/api/v1/usage', key);
    expect(usage.body).toMatchObject({ calls: 4, remaining: 36 });
  });

  it('says what a dry run would cost without counting it, and refuses a dry run above the plan', async () => {
    const { key } = await sandboxKey('analyst');
    const client = await mcp(key);
    const dry = await callTool(client, 'congressional_trades', { ticker: 'NVDA', dry_run: true });
    expect(dry.isError).toBeFalsy();
    expect(dry.structuredContent).toEqual({
      dry_run: { tool: 'congressional_trades', route: 'GET /api/congressional-trades', would_cost: { calls: 1 } },
    });
    expect(dry._meta).toMatchObject({ cost: { calls: 0 }, usage: { calls: 0, remaining: 40 } });
    expect((dry._meta as any).rate_limit.remaining).toBe(REQUESTS_PER_MINUTE.analyst);
    const above = await callTool(client, 'convergence', { dry_run: true });
    expect(resultText(above).upgrade_required.plan).toBe('professional');
    const usage = await service.get('/api/v1/usage', key);
    expect(usage.body.calls).toBe(1);
  });

  it('refuses past the rate limit with rate_limited and retry_after, counting no call', async () => {
    const { key } = await sandboxKey('analyst', 'live');
    const client = await mcp(key);
    for (let index = 0; index < REQUESTS_PER_MINUTE.analyst; index++) {
      const answer = await service.get('/api/stats/public', key);
      expect(answer.status, `call ${index + 1}`).toBe(200);
    }
    const refused = await callTool(client, 'signals', { limit: 1 });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatchObject({ error: 'rate_limited', retry_after: expect.any(Number) });
    expect(refused._meta).toMatchObject({ cost: { calls: 0 } });
    expect((refused._meta as any).usage).toBeUndefined();
  });

  it('refuses past the sandbox credits with trial_limit_reached', async () => {
    const { key } = await sandboxKey('institutional');
    const client = await mcp(key);
    for (let index = 0; index < 40; index++) {
      const answer = await callTool(client, 'data_status', {});
      expect(answer.isError, `call ${index + 1}`).toBeFalsy();
    }
    expect((await callTool(client, 'data_status', {}))._meta).toMatchObject({
      error: { error: 'trial_limit_reached' },
    });
  });
});

describe('messages that are no tool call', () => {
  it('cost no credit but are bounded per account; past the budget a 429, while tool calls go on', async () => {
    const { key } = await sandboxKey();
    const post = (message: Record<string, unknown>) =>
      sendMcp(service.url, {
        key,
        headers: { 'mcp-protocol-version': '2025-06-18' },
        body: rpc(message.method as string, message.params as Record<string, unknown> | undefined),
      });
    const list = () => post({ method: 'prompts/list' });
    for (let sent = 0; sent < PROTOCOL_MESSAGE_BUDGET.max; sent += 20) {
      const statuses = await Promise.all(Array.from({ length: 20 }, async () => (await list()).status));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ error: 'rate_limited' });
    const call = await post({ method: 'tools/call', params: { name: 'data_status', arguments: {} } });
    expect(call.status).toBe(200);
    expect(call.body.result._meta).toMatchObject({ usage: { calls: 1 } });
  });
});

describe('credentials', () => {
  it('refuses the next request of a revoked key with the API 401', async () => {
    const { key, id, accountId } = await sandboxKey();
    const client = await mcp(key);
    expect((await callTool(client, 'data_status', {})).isError).toBeFalsy();
    await revokeKey(service.databases.live, service.app.credentialCache, accountId, id);
    await expect(callTool(client, 'data_status', {})).rejects.toThrow(/"error":"unauthorized"/);
    const raw = await sendMcp(service.url, { key, body: rpc('tools/list') });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(raw.body).toMatchObject({ error: 'unauthorized' });
  });

  it('shares one credit count between two gateways on one database', async () => {
    const second: FastifyInstance = await createServer({
      databases: service.databases,
      limits: createLimits({ scheme: 'B', sandboxCredits: 40 }),
    });
    try {
      await second.listen({ port: 0, host: '127.0.0.1' });
      const port = (second.server.address() as { port: number }).port;
      const { key } = await sandboxKey();
      const [here, there] = [await mcp(key), await mcp(key, `http://127.0.0.1:${port}`)];
      for (let index = 0; index < 6; index++) {
        await callTool(index % 2 ? here : there, 'data_status', {});
      }
      const last = await callTool(there, 'data_status', {});
      expect((last._meta as any).usage).toMatchObject({ calls: 7, remaining: 33 });
    } finally {
      await second.close();
    }
  });
});
