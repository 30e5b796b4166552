import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, resultText } from '../support/mcp-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { rpc, sendMcp, sendMcpWithHost, toolCall } from './mcp-requests.ts';
import type { McpExchange } from './mcp-requests.ts';
import { expectDocumentedResponse, expectJsonRpcError } from './responses.ts';

/**
 * /mcp under hostile requests, over real HTTP (fetch, node:http for a Host of our choosing, and the SDK's own
 * client): credentials, Host and Origin, the body's size, type and shape, HTTP methods, JSON-RPC methods and
 * tool calls that are not what they should be. Never a 5xx, always a documented refusal (our error body, or a
 * JSON-RPC error where the protocol has one), never a stack, SQL or a path, and a refused call runs nothing.
 */
const ALLOWED_ORIGIN = 'https://app.example.com';
/** The code the SDK's transport (and our 405) answer a request it will not take with: JSON-RPC's server-error range. */
const TRANSPORT_REFUSAL = -32000;
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300, server: { corsOrigins: [ALLOWED_ORIGIN] } });
  ({ key } = await service.createKey());
});
afterAll(() => service?.stop());

const leadRows = async () => {
  const [row] = await service.databases.sandbox.sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM leads',
  );
  return row!.count;
};

/** The calls the key's account has spent, as a dry run (which spends none) reports them. */
const callsSpent = async (own: string) => {
  const answer = await sendMcp(service.url, { key: own, body: toolCall('data_status', { dry_run: true }) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.result._meta.usage.calls as number;
};

const SAVE_LEAD = { action: 'save', record_id: 'b2b_1' };

describe('credentials', () => {
  const expectChallenge = (answer: McpExchange) => {
    expectDocumentedResponse(answer);
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body.error).toBe('unauthorized');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
  };

  it.each([
    ['no key', {}],
    ['a malformed key', { authorization: 'Bearer not-a-key' }],
    ['another scheme', { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }],
    ['a 4 kB key', { authorization: `Bearer sk_test_${'x'.repeat(4096)}` }],
    ['an unknown key', { authorization: `Bearer sk_test_${'x'.repeat(43)}` }],
  ])('%s is a 401 with WWW-Authenticate, and nothing runs', async (_, headers) => {
    const before = await leadRows();
    expectChallenge(await sendMcp(service.url, { headers, body: toolCall('leads', SAVE_LEAD) }));
    expect(await leadRows()).toBe(before);
  });

  it('without a valid key, the body is not read: a 401 whatever it holds', async () => {
    for (const body of ['{not json', toolCall('leads', { ...SAVE_LEAD, notes: 'a\u0000b' }), 'x'.repeat(300_000)]) {
      expectChallenge(await sendMcp(service.url, { body }));
    }
  });

  it('a revoked key is a 401 from its revocation on, to fetch and to the SDK client alike', async () => {
    // A live key: listing and revoking keys is not granted to sandbox keys.
    const { key: own } = await service.createKey({ mode: 'live' });
    const client = await connectMcp(service.url, own);
    try {
      const answered = await client.callTool({ name: 'data_status', arguments: {} });
      expect(answered.isError, JSON.stringify(answered)).toBeFalsy();
      const listed = await service.request('GET', '/api/keys', { key: own });
      const [listing] = listed.body.keys as { id: string }[];
      expect((await service.request('DELETE', `/api/keys/${listing!.id}`, { key: own })).status).toBe(200);
      expectChallenge(await sendMcp(service.url, { key: own, body: toolCall('data_status', {}) }));
      await expect(client.callTool({ name: 'data_status', arguments: {} })).rejects.toMatchObject({ code: 401 });
    } finally {
      await client.close();
    }
  });

  it('the SDK client cannot connect with a key that is not one', async () => {
    await expect(connectMcp(service.url, `sk_test_${'y'.repeat(43)}`)).rejects.toMatchObject({ code: 401 });
  });
});

describe('Host and Origin (DNS rebinding)', () => {
  const expectRefused = (answer: McpExchange) => {
    expectDocumentedResponse(answer);
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body.error).toBe('host_not_allowed');
  };

  it.each([
    'evil.example.com',
    'localhost.evil.example.com',
    '127.0.0.1.nip.io',
    '[::1',
    'localhost:abc',
    'localhost:80@evil.example.com',
  ])('Host %j is a 403 host_not_allowed', async (host) => {
    expectRefused(await sendMcpWithHost(service.url, host, key, toolCall('data_status', {})));
  });

  it.each(['localhost:99999', 'LOCALHOST', '[::1]:1'])(
    'Host %j, an allowed name in another case or with an odd port, is answered',
    async (host) => {
      const answer = await sendMcpWithHost(service.url, host, key, toolCall('data_status', {}));
      expectDocumentedResponse(answer);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.result?.isError, answer.text).toBeUndefined();
    },
  );

  it.each(['https://evil.example.com', 'null', 'http://localhost.evil.example.com', 'not an origin'])(
    'Origin %j is a 403 host_not_allowed, even before a body that is not JSON',
    async (origin) => {
      expectRefused(await sendMcp(service.url, { key, headers: { origin }, body: toolCall('data_status', {}) }));
      expectRefused(await sendMcp(service.url, { key, headers: { origin }, body: '{not json' }));
    },
  );

  it('the SDK client sending a foreign Origin cannot connect', async () => {
    await expect(connectMcp(service.url, key, { origin: 'https://evil.example.com' })).rejects.toMatchObject({
      code: 403,
    });
  });

  it('an allowed CORS origin, and an origin of an allowed host, are answered (with CORS for the former)', async () => {
    const cors = await sendMcp(service.url, { key, headers: { origin: ALLOWED_ORIGIN }, body: rpc('tools/list') });
    expect(cors.status, cors.text).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(cors.body.result.tools.length).toBeGreaterThan(10);
    const local = await sendMcp(service.url, {
      key,
      headers: { origin: 'http://localhost:5173' },
      body: rpc('tools/list'),
    });
    expect(local.status, local.text).toBe(200);
    const client = await connectMcp(service.url, key, { origin: ALLOWED_ORIGIN });
    try {
      expect((await client.listTools()).tools.length).toBe(cors.body.result.tools.length);
    } finally {
      await client.close();
    }
  });
});

describe('the request itself', () => {
  it('a JSON array (a batch, even empty) is a 400 JSON-RPC Invalid Request, and nothing runs', async () => {
    const before = await leadRows();
    for (const body of [`[${toolCall('leads', SAVE_LEAD)}]`, '[]', `[${rpc('tools/list')}, ${rpc('ping')}]`]) {
      expectJsonRpcError(await sendMcp(service.url, { key, body }), 400, ErrorCode.InvalidRequest);
    }
    expect(await leadRows()).toBe(before);
  });

  it('a body over 256 KiB is a 413 in our error shape, naming the limit of /mcp', async () => {
    const answer = await sendMcp(service.url, { key, body: toolCall('search_records', { q: 'x'.repeat(262_144) }) });
    expectDocumentedResponse(answer);
    expect(answer.status).toBe(413);
    expect(answer.body.details).toEqual({ body: 'is larger than 262144 bytes' });
    // Just under the limit, the body is read: the tool refuses its argument.
    const under = await sendMcp(service.url, { key, body: toolCall('search_records', { q: 'x'.repeat(200_000) }) });
    expect(under.status, under.text).toBe(200);
    expect(under.body.result.isError).toBe(true);
  });

  it.each([
    ['not JSON', '{not json'],
    ['empty', ''],
  ])('a body that is %s is a 400 in our error shape', async (_, body) => {
    const answer = await sendMcp(service.url, { key, body });
    expectDocumentedResponse(answer);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.details)).toEqual(['body']);
  });

  it.each(['null', '42', '"tools/list"', '{}', '{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}'])(
    'JSON that is no JSON-RPC message (%s) is a 400 JSON-RPC Parse error',
    async (body) => {
      expectJsonRpcError(await sendMcp(service.url, { key, body }), 400, ErrorCode.ParseError);
    },
  );

  it('a wrong Content-Type is a 415, from the framework or from the transport', async () => {
    const framework = await sendMcp(service.url, {
      key,
      headers: { 'content-type': 'application/xml' },
      body: rpc('tools/list'),
    });
    expectDocumentedResponse(framework);
    expect(framework.status).toBe(415);
    // text/plain is read as text, so the SDK's transport refuses it.
    const transport = await sendMcp(service.url, {
      key,
      headers: { 'content-type': 'text/plain' },
      body: rpc('tools/list'),
    });
    expectJsonRpcError(transport, 415, TRANSPORT_REFUSAL);
  });

  it.each(['application/json', 'text/event-stream', '*/*', ''])(
    'a POST with Accept %j (not both types) is a 406',
    async (accept) => {
      const answer = await sendMcp(service.url, { key, headers: { accept }, body: toolCall('leads', SAVE_LEAD) });
      expectJsonRpcError(answer, 406, TRANSPORT_REFUSAL);
    },
  );

  it.each(['GET', 'DELETE'])('%s /mcp is a 405 with Allow: POST', async (method) => {
    const answer = await sendMcp(service.url, { method, key });
    expectJsonRpcError(answer, 405, TRANSPORT_REFUSAL);
    expect(answer.headers.get('allow')).toBe('POST');
  });

  it('PUT /mcp is a 405 in our error shape', async () => {
    const answer = await sendMcp(service.url, { method: 'PUT', key, body: rpc('tools/list') });
    expectDocumentedResponse(answer);
    expect(answer.status).toBe(405);
  });
});

describe('JSON-RPC methods and tool calls', () => {
  it.each(['nope', 'tools/nope', 'constructor', '__proto__', 'sampling/createMessage'])(
    'method %s is a JSON-RPC Method not found',
    async (method) => {
      expectJsonRpcError(await sendMcp(service.url, { key, body: rpc(method) }), 200, ErrorCode.MethodNotFound);
    },
  );

  it.each(['nope', 'constructor', '__proto__', 'toString', 'LEADS', ''])(
    'tools/call of tool %j, which does not exist, is a JSON-RPC Invalid params',
    async (name) => {
      const answer = await sendMcp(service.url, { key, body: toolCall(name, {}) });
      expectJsonRpcError(answer, 200, ErrorCode.InvalidParams);
    },
  );

  it.each([
    ['an array', [SAVE_LEAD]],
    ['a string', 'action=save'],
    ['a number', 1],
    ['null', null],
    ['true', true],
  ])('tools/call with arguments that are %s is a JSON-RPC Invalid params, and nothing runs', async (_, args) => {
    const { key: own } = await service.createKey();
    const before = await leadRows();
    const answer = await sendMcp(service.url, { key: own, body: toolCall('leads', args) });
    expectJsonRpcError(answer, 200, ErrorCode.InvalidParams);
    expect(await leadRows()).toBe(before);
    expect(await callsSpent(own)).toBe(0);
  });

  it('other requests whose params are not of their type are JSON-RPC Invalid params', async () => {
    for (const body of [
      rpc('tools/call', { arguments: {} }),
      rpc('tools/call', { name: 5 }),
      rpc('resources/read', { uri: 5 }),
      rpc('resources/read', {}),
      rpc('prompts/get', { name: ['x'] }),
      rpc('prompts/get', { name: 'daily_briefing', arguments: { date: 5 } }),
    ]) {
      expectJsonRpcError(await sendMcp(service.url, { key, body }), 200, ErrorCode.InvalidParams);
    }
  });

  it('the SDK client calling an unknown tool, or with arguments that are not an object, gets an McpError', async () => {
    const client = await connectMcp(service.url, key);
    try {
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
      await expect(client.callTool({ name: 'signals', arguments: [1] as never })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
      // An argument the tool does not take is the tool's refusal, in REST's words.
      const unknown = (await client.callTool({ name: 'signals', arguments: { constructor: 1 } })) as CallToolResult;
      expect(unknown.isError).toBe(true);
      expect(resultText(unknown)).toMatchObject({
        error: 'invalid_parameter',
        details: { constructor: 'is not an argument of this tool' },
      });
    } finally {
      await client.close();
    }
  });

  it.each([
    ['a NUL in an argument', () => toolCall('leads', { ...SAVE_LEAD, notes: 'a\u0000b' }), 'params.arguments.notes'],
    [
      'an unpaired surrogate in an argument',
      () => toolCall('leads', { ...SAVE_LEAD, tags: ['ok', '\ud800'] }),
      'params.arguments.tags.1',
    ],
    [
      'a lone low surrogate in a GraphQL variable',
      () =>
        toolCall('graphql', {
          query: 'query ($q: String!) { search(q: $q) { nodes { id } } }',
          variables: { q: '\udc00' },
        }),
      'params.arguments.variables.q',
    ],
    ['a NUL in the tool name', () => toolCall('leads\u0000', SAVE_LEAD), 'params.name'],
  ])('%s is a 400 naming it (the request text check), and nothing runs', async (_, body, name) => {
    const { key: own } = await service.createKey();
    const before = await leadRows();
    const answer = await sendMcp(service.url, { key: own, body: body() });
    expectDocumentedResponse(answer);
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual({ [name]: 'must not contain NUL characters or unpaired UTF-16 surrogates' });
    expect(await leadRows()).toBe(before);
    expect(await callsSpent(own)).toBe(0);
  });

  it('unsafe text hidden in a cursor (base64, past the request text check) is the tool’s 400, and nothing is saved', async () => {
    const { key: own } = await service.createKey();
    const before = await leadRows();
    const cursor = Buffer.from(
      JSON.stringify({ t: 'leads', a: { ...SAVE_LEAD, notes: 'a\u0000b' }, s: 0 }),
      'utf8',
    ).toString('base64url');
    const answer = await sendMcp(service.url, { key: own, body: toolCall('leads', { cursor }) });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.result.isError).toBe(true);
    expect(answer.body.result._meta.error).toMatchObject({
      error: 'invalid_parameter',
      details: { notes: 'must not contain NUL characters or unpaired UTF-16 surrogates' },
    });
    expect(await leadRows()).toBe(before);
  });
});

describe('found by the MCP fuzz (mcp-fuzz.test.ts)', () => {
  const tableRows = async (table: 'leads' | 'watchlist_entries' | 'report_jobs') => {
    const [row] = await service.databases.sandbox.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${table}`,
    );
    return row!.count;
  };

  it.each([
    ['leads', SAVE_LEAD, 'leads'],
    ['watchlist', { action: 'add', ticker: 'NVDA' }, 'watchlist_entries'],
    ['reports', { action: 'generate', vertical: 'b2b' }, 'report_jobs'],
  ] as const)(
    'a %s write whose `fields` names nothing its answer has is answered whole: it was done, so it is no refusal',
    async (tool, args, table) => {
      const { key: own } = await service.createKey();
      const before = await tableRows(table);
      const answer = await sendMcp(service.url, { key: own, body: toolCall(tool, { ...args, fields: ['nope', ''] }) });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.result.isError, answer.text).toBeUndefined();
      expect(Object.keys(answer.body.result.structuredContent).length, answer.text).toBeGreaterThan(1);
      expect(await tableRows(table)).toBe(before + 1);
    },
  );

  it('a read whose `fields` names nothing its answer has is still a 400 naming `fields`', async () => {
    const answer = await sendMcp(service.url, { key, body: toolCall('signals', { limit: 2, fields: ['nope'] }) });
    expect(answer.body.result.isError, answer.text).toBe(true);
    expect(Object.keys(answer.body.result._meta.error.details)).toEqual(['fields']);
  });
});
