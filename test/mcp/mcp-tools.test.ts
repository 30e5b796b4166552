import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { chooseVariant } from '../../gateway/mcp/tool-arguments.ts';
import { TOOLS } from '../../gateway/mcp/tool-catalog.ts';
import { rpc, sendMcp } from '../abuse/mcp-requests.ts';
import { connectMcp, resultText } from '../support/mcp-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let client: Client;
let tools: Tool[];
const validators = new Map<string, (value: unknown) => boolean>();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 200 });
  const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
  client = await connectMcp(service.url, key);
  ({ tools } = await client.listTools());
  for (const tool of tools) validators.set(tool.name, ajv.compile(tool.outputSchema!));
});
afterAll(async () => {
  await client?.close();
  await service?.stop();
});

/** The routes the calls of this file ran, by the variant each call's arguments pick. */
const routesRun = new Set<string>();

/** Calls a tool and asserts its structured answer validates against the tool's own outputSchema. */
async function call(name: string, args: Record<string, unknown>) {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool && !args.cursor) routesRun.add(chooseVariant(tool, args).route);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const validate = validators.get(name)!;
  expect(validate(result.structuredContent), JSON.stringify((validate as any).errors)).toBe(true);
  // What the model reads is the same answer as text.
  expect(resultText(result)).toEqual(result.structuredContent);
  return { answer: result.structuredContent as any, meta: result._meta as any };
}

describe('tools/list', () => {
  it('lists at most 15 tools, each with a description, an input schema and an output schema', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS.map((tool) => tool.name), 'graphql'].sort());
    expect(tools.length).toBeLessThanOrEqual(15);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // Every argument says what it is for, so a model need not guess.
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });
});

describe('stateless Streamable HTTP', () => {
  it('gives no session id, and answers a client that sends one it made up, or none', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
    const post = (headers: Record<string, string>, message: Record<string, unknown>) =>
      sendMcp(service.url, {
        key,
        headers,
        body: rpc(message.method as string, message.params as Record<string, unknown> | undefined),
      });
    const initialize = await post(
      {},
      {
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    );
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get('mcp-session-id')).toBeNull();
    expect(initialize.body.result.serverInfo.name).toBe('data-graph');
    for (const headers of [{ 'mcp-session-id': 'made-up-by-the-client' }, {}] as Record<string, string>[]) {
      const listed = await post({ 'mcp-protocol-version': '2025-06-18', ...headers }, { method: 'tools/list' });
      expect(listed.status).toBe(200);
      expect(listed.body.result.tools).toHaveLength(tools.length);
    }
    const dropped = await connectMcp(service.url, key, { 'mcp-session-id': 'another' });
    expect((await dropped.callTool({ name: 'data_status', arguments: {} })).isError).toBeFalsy();
    await dropped.close();
  });
});

describe('every tool, every variant, against the seeded sandbox', () => {
  it('answers each read variant with an answer that validates against its outputSchema and equals its REST route', async () => {
    const { answer: trades } = await call('congressional_trades', { chamber: 'senate', limit: 5 });
    const rest = await service.get('/api/congressional-trades?chamber=senate&limit=5', undefined);
    expect(trades.trades.map((trade: { id: string }) => trade.id)).toEqual(
      rest.body.trades.map((trade: { id: string }) => trade.id),
    );
    expect(trades.trades.every((trade: { chamber: string }) => trade.chamber === 'senate')).toBe(true);

    await call('congressional_trades', { view: 'summary', days: 365 });
    await call('insider_trades', { limit: 3 });
    await call('signals', { limit: 3, sentiment: 'BULLISH' });
    const { answer: search } = await call('search_records', { q: 'a', per_page: 3 });
    expect(search.data.length).toBeGreaterThan(0);
    for (const type of ['companies', 'contacts', 'properties', 'owners', 'attorneys', 'firms']) {
      const { answer: list } = await call('records', { type, per_page: 2 });
      expect(list.data).toHaveLength(2);
      const { answer: one } = await call('records', { type, id: list.data[0].id });
      expect(one.data.id).toBe(list.data[0].id);
    }
    const { answer: members } = await call('members', { q: 'a', limit: 2 });
    const ticker = trades.trades[0].ticker as string;
    await call('ticker', { ticker });
    await call('ticker', { view: 'profile', ticker });
    await call('ticker', { view: 'signals', ticker, limit: 2 });
    await call('convergence', { days: 365, evidence: true, limit: 2 });
    const { answer: briefings } = await call('briefings', { limit: 2 });
    if (briefings.briefings.length > 0) {
      const { answer: briefing } = await call('briefings', { date: briefings.briefings[0].date });
      expect(briefing.html).toContain('<');
    }
    await call('macro', {});
    await call('macro', { view: 'indicators' });
    await call('data_status', {});
    await call('data_status', { view: 'sources' });
    const { answer: graphql } = await call('graphql', { query: '{ publicStats { congressionalTrades } }' });
    expect(graphql.data.publicStats.congressionalTrades).toBeGreaterThan(0);
    expect(members.members.length).toBeGreaterThan(0);
  });

  it('changes what the write variants change, and reads it back', async () => {
    const { answer: companies } = await call('records', { type: 'companies', per_page: 1 });
    const recordId = companies.data[0].id as string;
    const { answer: saved } = await call('leads', { action: 'save', record_id: recordId, tags: ['mcp'] });
    const leadId = saved.data.id as string;
    await call('leads', { action: 'update', id: leadId, status: 'contacted' });
    const { answer: lead } = await call('leads', { action: 'get', id: leadId });
    expect(lead.data).toMatchObject({ record_id: recordId, status: 'contacted', tags: ['mcp'] });
    const { answer: leads } = await call('leads', { tag: 'mcp' });
    expect(leads.data.map((item: { id: string }) => item.id)).toContain(leadId);
    await call('leads', { action: 'delete', id: leadId });

    const { answer: added } = await call('watchlist', { action: 'add', ticker: 'NVDA' });
    expect(added.ticker).toBe('NVDA');
    const { answer: watchlist } = await call('watchlist', {});
    expect(watchlist.watchlist.map((entry: { ticker: string }) => entry.ticker)).toContain('NVDA');
    const { answer: removed } = await call('watchlist', { action: 'remove', ticker: 'NVDA' });
    expect(removed).toMatchObject({ ticker: 'NVDA', removed: true });

    const { answer: job } = await call('reports', { action: 'generate', vertical: 'b2b', format: 'csv' });
    const { answer: followed } = await call('reports', { action: 'get', id: job.data.id });
    expect(followed.data.id).toBe(job.data.id);
    const { answer: jobs } = await call('reports', {});
    expect(jobs.data.map((item: { id: string }) => item.id)).toContain(job.data.id);
  });
});

describe('coverage of this file', () => {
  it('ran every route of every tool', () => {
    const all = TOOLS.flatMap((tool) => tool.variants.map((variant) => variant.route));
    expect(all.filter((route) => !routesRun.has(route))).toEqual([]);
  });
});

describe('answers that fit a context window', () => {
  it('cuts a page past its budget at whole items, says so, and goes on by cursor without gaps or repeats', async () => {
    const rest = await service.get('/api/v1/b2b/companies?per_page=100&page=1', undefined);
    const expected = rest.body.data.map((company: { id: string }) => company.id);
    const seen: string[] = [];
    let args: Record<string, unknown> = { type: 'companies', per_page: 100, max_tokens: 2_000 };
    for (let round = 0; round < 20 && seen.length < expected.length; round++) {
      const { answer } = await call('records', args);
      if (seen.length + answer.data.length < expected.length) {
        expect(answer.truncated).toMatchObject({ cut: ['data'], budget_tokens: 2_000 });
        expect(JSON.stringify(answer).length / 4).toBeLessThanOrEqual(2_000);
      }
      seen.push(...answer.data.map((company: { id: string }) => company.id));
      args = { cursor: answer.next_cursor, max_tokens: 2_000 };
    }
    expect(seen.slice(0, expected.length)).toEqual(expected);
  });

  it('goes on to the next page by cursor, and keeps only the fields asked for', async () => {
    const { answer: first } = await call('congressional_trades', { limit: 2, fields: ['id', 'member_name'] });
    expect(first.trades.every((trade: object) => Object.keys(trade).sort().join() === 'id,member_name')).toBe(true);
    expect(first.truncated).toBeUndefined();
    const { answer: second } = await call('congressional_trades', { cursor: first.next_cursor });
    expect(second.page).toBe(2);
    const rest = await service.get('/api/congressional-trades?limit=2&page=2', undefined);
    expect(second.trades.map((trade: { id: string }) => trade.id)).toEqual(
      rest.body.trades.map((trade: { id: string }) => trade.id),
    );
  });

  it('refuses a field the answer does not have, naming those it has', async () => {
    const result = (await client.callTool({
      name: 'signals',
      arguments: { fields: ['ticker', 'colour'] },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatchObject({
      error: 'invalid_parameter',
      details: { fields: expect.stringMatching(/^has no field colour; the answer's fields are .*ticker/) },
    });
  });
});

describe('resources and prompts', () => {
  it('serves the GraphQL SDL and the OpenAPI document the tools are built on', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'data-graph://openapi.json',
      'data-graph://schema.graphql',
    ]);
    const sdl = await client.readResource({ uri: 'data-graph://schema.graphql' });
    expect((sdl.contents[0] as { text: string }).text).toMatch(/type Query \{[\s\S]*congressionalTrades\(/);
    const openApi = await client.readResource({ uri: 'data-graph://openapi.json' });
    const document = JSON.parse((openApi.contents[0] as { text: string }).text);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/api/congressional-trades');
    await expect(client.readResource({ uri: 'data-graph://elsewhere' })).rejects.toThrow(/No resource is at/);
  });

  it('offers prompts that name the tools to use, and refuses one without its required argument', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
      'daily_briefing',
      'member_trading_summary',
      'ticker_picture',
    ]);
    const prompt = await client.getPrompt({ name: 'ticker_picture', arguments: { ticker: 'NVDA' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('NVDA');
    for (const tool of ['ticker', 'insider_trades', 'congressional_trades', 'signals']) {
      expect(text).toContain(`\`${tool}\``);
      expect(tools.map((listed) => listed.name)).toContain(tool);
    }
    await expect(client.getPrompt({ name: 'member_trading_summary', arguments: {} })).rejects.toThrow(/needs member/);
  });
});
