import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.ts';
import { ROOT } from '../support/child-process.ts';
import type { Exit } from '../support/child-process.ts';
import { connectMcp, resultText } from '../support/mcp-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/** The `data-graph-mcp` bin as package.json names it, run as an agent runs it: `node <bin>`. */
const BIN = `${ROOT}scripts/data-graph-mcp.js`;

/** The environment an agent gives the server: the SDK's few inherited variables and ours, nothing of the test's. */
const stdioEnvironment = (env: Record<string, string>) => ({
  ...getDefaultEnvironment(),
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
  LOG_LEVEL: 'silent',
  ...env,
});

const opened: Client[] = [];

/** The SDK client over stdio to a `data-graph-mcp` process of its own. */
async function connectStdio(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    cwd: ROOT,
    env: stdioEnvironment(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'data-graph-stdio-tests', version: '1.0.0' });
  await client.connect(transport);
  opened.push(client);
  return { client, transport, stderr: () => stderr };
}

/** A tool call's result (the SDK's type also allows a legacy shape no server of ours answers). */
const callTool = (client: Client, params: { name: string; arguments: Record<string, unknown> }) =>
  client.callTool(params) as Promise<CallToolResult>;

/** Whether a process id still names a running process. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  await Promise.allSettled(opened.map((client) => client.close()));
});

describe('MCP over stdio (scripts/mcp.ts), forwarding to a running service', () => {
  let service: TestService;
  let key: string;
  let http: Client;
  let stdio: Client;

  beforeAll(async () => {
    service = await startTestService({ sandboxScale: 200 });
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' }));
    http = await connectMcp(service.url, key);
    ({ client: stdio } = await connectStdio({ DATA_GRAPH_API_KEY: key, DATA_GRAPH_URL: service.url }));
  });

  afterAll(async () => {
    await http?.close();
    await service?.stop();
  });

  it('offers the service’s tools, capabilities and instructions', async () => {
    const overHttp = await http.listTools();
    const overStdio = await stdio.listTools();
    expect(overStdio.tools.map((tool) => tool.name)).toEqual(overHttp.tools.map((tool) => tool.name));
    expect(overStdio.tools).toHaveLength(15);
    expect(overStdio).toEqual(overHttp);
    expect(stdio.getServerCapabilities()).toEqual(http.getServerCapabilities());
    expect(stdio.getInstructions()).toBe(http.getInstructions());
    expect(stdio.getServerVersion()).toEqual(http.getServerVersion());
  });

  it('answers a data tool as over HTTP, with `_meta`, and counts both channels’ calls on one key', async () => {
    const args = { name: 'congressional_trades', arguments: { days: 3650, fields: ['member_name', 'ticker'] } };
    const first = await callTool(http, args);
    const overStdio = await callTool(stdio, args);
    const last = await callTool(http, args);

    expect(overStdio.isError, JSON.stringify(overStdio.content)).toBeFalsy();
    expect((overStdio.structuredContent as { trades: unknown[] }).trades.length).toBeGreaterThan(0);
    expect(overStdio.structuredContent).toEqual(first.structuredContent);
    expect(resultText(overStdio)).toEqual(first.structuredContent);

    // A fresh key: the lists and reads before cost nothing, each tool call one credit whichever way it came.
    const usage = (result: CallToolResult) => (result._meta as { usage: { calls: number } }).usage.calls;
    expect([usage(first), usage(overStdio), usage(last)]).toEqual([1, 2, 3]);
    expect(overStdio._meta).toMatchObject({
      request_id: expect.any(String),
      cost: { calls: 1 },
      usage: { mode: 'sandbox', calls: 2 },
      rate_limit: { limit: expect.any(Number), remaining: expect.any(Number) },
    });
    expect((overStdio._meta as { request_id: string }).request_id).not.toBe(
      (first._meta as { request_id: string }).request_id,
    );
  });

  it('passes on a tool’s refusal and the service’s JSON-RPC errors as the service gave them', async () => {
    const invalid = { name: 'congressional_trades', arguments: { days: 'many' } };
    const [refusedOverHttp, refusedOverStdio] = [await callTool(http, invalid), await callTool(stdio, invalid)];
    expect(refusedOverStdio.isError).toBe(true);
    expect(resultText(refusedOverStdio)).toMatchObject({
      error: 'invalid_parameter',
      details: { days: expect.any(String) },
    });
    expect(resultText(refusedOverStdio)).toEqual(resultText(refusedOverHttp));

    const unknown = { name: 'no_such_tool', arguments: {} };
    const overHttp = await http.callTool(unknown).catch((error: unknown) => error);
    const overStdio = await stdio.callTool(unknown).catch((error: unknown) => error);
    expect(overHttp).toBeInstanceOf(McpError);
    expect(overStdio).toBeInstanceOf(McpError);
    expect({ code: (overStdio as McpError).code, message: (overStdio as McpError).message }).toEqual({
      code: (overHttp as McpError).code,
      message: (overHttp as McpError).message,
    });
  });

  it('forwards resources and prompts', async () => {
    expect(await stdio.listResources()).toEqual(await http.listResources());
    const uri = 'data-graph://schema.graphql';
    const schema = await stdio.readResource({ uri });
    expect(schema).toEqual(await http.readResource({ uri }));
    expect((schema.contents[0] as { text: string }).text).toContain('type Query');
    expect(await stdio.listPrompts()).toEqual(await http.listPrompts());
    const prompt = { name: 'ticker_picture', arguments: { ticker: 'NVDA' } };
    expect(await stdio.getPrompt(prompt)).toEqual(await http.getPrompt(prompt));
  });

  it('answers the call under way when its stdin closes, then exits by itself', async () => {
    const child = spawn(process.execPath, [BIN], {
      cwd: ROOT,
      env: stdioEnvironment({ DATA_GRAPH_API_KEY: key, DATA_GRAPH_URL: service.url }),
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<Pick<Exit, 'code' | 'signal'>>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'data_status', arguments: {} } },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    expect(await exited).toEqual({ code: 0, signal: null });
    // stdout is the protocol's alone: one JSON-RPC answer a line, nothing else.
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1].result.structuredContent).toBeDefined();
    expect(answers[1].result._meta.cost).toEqual({ calls: 1 });
  });

  it('answers a key the service refuses with the service’s 401 body, as a tool’s error', async () => {
    const { client, transport } = await connectStdio({
      DATA_GRAPH_API_KEY: 'sk_test_not_a_key_of_this_service',
      DATA_GRAPH_URL: service.url,
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await callTool(client, { name: 'congressional_trades', arguments: {} });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
    }
    expect(isRunning(transport.pid!)).toBe(true);
  });
});

describe('data-graph-mcp without a service', () => {
  it('exits 2 with one line on stderr when DATA_GRAPH_API_KEY is missing, writing nothing on stdout', async () => {
    const child = spawn(process.execPath, [BIN], { cwd: ROOT, env: stdioEnvironment({}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = await new Promise<Pick<Exit, 'code'>>((resolve) => child.once('close', (code) => resolve({ code })));
    expect(exit.code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('DATA_GRAPH_API_KEY is not set')]);
  });

  it('answers isError `service_unavailable` once the service has stopped, and stays up', async () => {
    const service = await startTestService({ sandboxScale: 0 });
    const { key } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    const { client, transport } = await connectStdio({ DATA_GRAPH_API_KEY: key, DATA_GRAPH_URL: service.url });
    const running = await callTool(client, { name: 'data_status', arguments: {} });
    expect(running.isError, JSON.stringify(running.content)).toBeFalsy();
    await service.stop();

    for (let attempt = 0; attempt < 2; attempt++) {
      const stopped = await callTool(client, { name: 'data_status', arguments: {} });
      expect(stopped.isError).toBe(true);
      expect(resultText(stopped)).toEqual({
        error: 'service_unavailable',
        message: expect.stringMatching(/could not be reached \(ECONNREFUSED\)/),
      });
    }
    const listed = await client.listTools().catch((error: unknown) => error);
    expect(listed).toBeInstanceOf(McpError);
    expect((listed as McpError).data).toMatchObject({ error: 'service_unavailable' });
    expect(isRunning(transport.pid!)).toBe(true);
  });

  it('starts against a service that is not there yet, and says so on each tool call', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const { client } = await connectStdio({ DATA_GRAPH_API_KEY: 'sk_test_whatever', DATA_GRAPH_URL: url });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const result = await callTool(client, { name: 'congressional_trades', arguments: {} });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatchObject({ error: 'service_unavailable', message: expect.stringContaining(url) });
  });
});
