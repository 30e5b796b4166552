import { fc } from '@fast-check/vitest';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_BY_CODE } from '../../subgraphs/platform/errors.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { FUZZ } from './fuzz-config.ts';
import { hostileJson } from './hostile-values.ts';
import { sendMcp, toolCall } from './mcp-requests.ts';
import { A_COMPANY, OWN_LEAD, OWN_REPORT, VALID_CALLS, WATCHED_TICKER } from './mcp-valid-calls.ts';
import type { ValidCall } from './mcp-valid-calls.ts';
import { expectDocumentedResponse, expectNothingLeaked } from './responses.ts';

/**
 * The abuse suite over MCP: every argument of every tool tools/list lists, one at a time, given generated hostile
 * values (hostile-values.ts) while the other arguments are valid. A call is refused whole at the door (a body
 * over the limit, unsafe text or a poisoning member name: a 413 or 400 before any tool runs), or it is a tool result: a success whose structured
 * content validates against the tool's outputSchema, or an error in REST's words that is no internal error. A
 * refused call changes no table, and a read-only tool never does. Runs and seed: fuzz-config.ts.
 */
const addFormats = formats as unknown as typeof formats.default;
const WRITTEN = ['leads', 'watchlist_entries', 'report_jobs'] as const;
/** What /mcp reads of a body at most (gateway/mcp/route.ts). */
const MCP_BODY_LIMIT = 256 * 1024;
/** What a tool's error body may hold beside REST's `{error, message, details}`. */
const ERROR_KEYS = new Set(['error', 'message', 'details', 'retry_after', 'upgrade_required']);

let service: TestService;
let tools: Map<string, Tool>;
const validators = new Map<string, ValidateFunction>();
let companyId: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  const [company] = await service.databases.sandbox.sql.query<{ id: number }>(
    'SELECT id FROM companies ORDER BY id LIMIT 1',
  );
  companyId = `b2b_${company!.id}`;
  const { key } = await service.createKey();
  const client = await connectMcp(service.url, key);
  try {
    tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  } finally {
    await client.close();
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const tool of tools.values()) validators.set(tool.name, ajv.compile(tool.outputSchema!));
});
afterAll(() => service?.stop());

const rowCounts = async () => {
  const [counts] = await service.databases.sandbox.sql.query<Record<string, number>>(
    `SELECT ${WRITTEN.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ')}`,
  );
  return counts;
};

const UNPAIRED_OR_NUL = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether the request is refused whole before any tool runs: a string or member name with NUL or an unpaired
 * surrogate (the request text check), or a member the JSON parser refuses (`__proto__`, `constructor.prototype`).
 */
function refusedAtTheDoor(value: unknown): boolean {
  if (typeof value === 'string') return UNPAIRED_OR_NUL.test(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([name, member]) =>
      UNPAIRED_OR_NUL.test(name) ||
      name === '__proto__' ||
      (name === 'constructor' && typeof member === 'object' && member !== null && Object.hasOwn(member, 'prototype')) ||
      refusedAtTheDoor(member),
  );
}

/** The valid call with its stand-ins made real for this key, over REST: a lead saved, a report queued, a ticker watched. */
async function realArguments(call: ValidCall, key: string): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(call)) {
    if (value === A_COMPANY) args[name] = companyId;
    else if (value === OWN_LEAD) args[name] = (await made(key, '/api/v1/leads', { record_id: companyId })).data.id;
    else if (value === OWN_REPORT)
      args[name] = (await made(key, '/api/v1/reports/generate', { vertical: 'b2b' })).data.id;
    else if (value === WATCHED_TICKER) args[name] = (await made(key, '/api/watchlist', { ticker: 'NVDA' })).ticker;
    else args[name] = value;
  }
  return args;
}

async function made(key: string, path: string, body: Record<string, unknown>): Promise<any> {
  const response = await service.request('POST', path, { key, body });
  expect(response.status, response.text).toBeLessThan(300);
  return response.body;
}

type Outcome = 'refused at the door' | 'tool error' | 'success';

/**
 * A cursor made by hand: the call's arguments with one of them hostile, base64url-encoded as the tools encode
 * theirs (gateway/mcp/cursor.ts). Sent alone, it carries its arguments past the request text check and the JSON
 * parser's checks, so the tool's own checks must refuse what they would have refused.
 */
class CraftedCursor {
  constructor(
    readonly argument: string,
    readonly value: unknown,
    readonly skip: unknown,
  ) {}

  encode(tool: string, args: Record<string, unknown>): string {
    const cursor = { t: tool, a: { ...args, [this.argument]: this.value }, s: this.skip };
    return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
  }
}

/** Hostile values for an argument; for `cursor`, also cursors crafted to hold a hostile argument. */
function hostileArgument(tool: Tool, property: string): fc.Arbitrary<unknown> {
  if (property !== 'cursor') return hostileJson;
  const names = Object.keys(tool.inputSchema.properties ?? {});
  const crafted = fc
    .tuple(fc.constantFrom(...names), hostileJson, fc.oneof(fc.nat({ max: 200 }), hostileJson))
    .map(([argument, value, skip]) => new CraftedCursor(argument, value, skip));
  return fc.oneof(hostileJson, crafted);
}

/**
 * One call of `tool` with a fresh institutional key (no rate limit, credit or plan in the way): `call`'s
 * arguments, `property` replaced by `value` when given. Checks the answer and the tables; says what came back.
 */
async function attack(tool: Tool, call: ValidCall, property?: string, value?: unknown): Promise<Outcome> {
  const { key } = await service.createKey();
  let args = await realArguments(call, key);
  if (value instanceof CraftedCursor) args = { cursor: value.encode(tool.name, args) };
  else if (property !== undefined) args[property] = value;
  const before = await rowCounts();
  const body = toolCall(tool.name, args);
  const answer = await sendMcp(service.url, { key, body });
  const context = `${tool.name} ${JSON.stringify(args).slice(0, 400)}\n→ ${answer.status} ${answer.text.slice(0, 600)}`;
  // A body past /mcp's limit is a 413, else unsafe text or a poisoning name a 400: either before any tool runs.
  const door = Buffer.byteLength(body) > MCP_BODY_LIMIT ? 413 : refusedAtTheDoor(args) ? 400 : undefined;
  if (answer.status !== 200 || door) {
    expectDocumentedResponse(answer);
    expect(answer.status, context).toBe(door);
    expect(await rowCounts(), `${context}\nwrote rows`).toEqual(before);
    return 'refused at the door';
  }
  expect(answer.body.error, context).toBeUndefined();
  const result = answer.body.result as CallToolResult;
  const [content] = result.content as { type: string; text: string }[];
  expect(content?.type, context).toBe('text');
  const text = JSON.parse(content!.text);
  if (result.isError) {
    expectToolError(text, context);
    expect(result._meta?.error, context).toEqual(text);
    expectNothingLeaked(answer.text, context);
    expect(await rowCounts(), `${context}\nwrote rows`).toEqual(before);
    return 'tool error';
  }
  const validate = validators.get(tool.name)!;
  expect(validate(result.structuredContent), `${context}\n${JSON.stringify(validate.errors)}`).toBe(true);
  expect(text, context).toEqual(result.structuredContent);
  const dryRun = (result.structuredContent as Record<string, unknown>).dry_run !== undefined;
  if (tool.annotations?.readOnlyHint || dryRun) expect(await rowCounts(), `${context}\nwrote rows`).toEqual(before);
  return 'success';
}

/** REST's error body: a documented code that is no internal error (nor a 503: no dependency is down here). */
function expectToolError(body: Record<string, unknown>, context: string) {
  expect(
    Object.keys(body).filter((key) => !ERROR_KEYS.has(key)),
    context,
  ).toEqual([]);
  const code = body.error as keyof typeof STATUS_BY_CODE;
  expect(typeof code === 'string' && Object.hasOwn(STATUS_BY_CODE, code), context).toBe(true);
  expect(code, context).not.toBe('internal_error');
  expect(STATUS_BY_CODE[code], context).toBeLessThan(500);
  expect(typeof body.message, context).toBe('string');
  if (body.details !== undefined) {
    expect(
      Object.values(body.details as object).every((problem) => typeof problem === 'string'),
      context,
    ).toBe(true);
  }
}

const listed = (name: string) => {
  const tool = tools.get(name);
  expect(tool, `${name} is not listed`).toBeDefined();
  return tool!;
};

describe('the valid calls', () => {
  it('cover every tool tools/list lists, and no tool that is gone', () => {
    expect(Object.keys(VALID_CALLS).sort()).toEqual([...tools.keys()].sort());
  });

  it.each(Object.keys(VALID_CALLS))('of %s succeed, each answer valid against its outputSchema', async (name) => {
    const tool = listed(name);
    for (const call of VALID_CALLS[name]!) expect(await attack(tool, call), JSON.stringify(call)).toBe('success');
  });

  it('as dry runs succeed, their answers valid against each outputSchema (the SDK client checks them too)', async () => {
    const { key } = await service.createKey();
    const client = await connectMcp(service.url, key);
    try {
      await client.listTools();
      for (const [name, calls] of Object.entries(VALID_CALLS)) {
        for (const call of calls) {
          expect(await attack(listed(name), call, 'dry_run', true), `${name} ${JSON.stringify(call)}`).toBe('success');
          const args = { ...(await realArguments(call, key)), dry_run: true };
          const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
          expect(result.structuredContent, `${name} ${JSON.stringify(args)}`).toMatchObject({
            dry_run: { tool: name },
          });
        }
      }
    } finally {
      await client.close();
    }
  });
});

describe(`every argument of every tool, one at a time, with hostile values (FUZZ_SEED=${FUZZ.seed})`, () => {
  Object.keys(VALID_CALLS).forEach((name, toolIndex) => {
    it(
      name,
      async () => {
        const tool = listed(name);
        const argumentCount = [...tools.values()].reduce(
          (sum, each) => sum + Object.keys(each.inputSchema.properties ?? {}).length,
          0,
        );
        // FUZZ_RUNS shared out over every argument of every tool, at least one run each.
        const numRuns = Math.ceil(FUZZ.numRuns / argumentCount);
        const properties = Object.keys(tool.inputSchema.properties ?? {});
        for (const [index, property] of properties.entries()) {
          await fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...VALID_CALLS[name]!),
              hostileArgument(tool, property),
              async (call, value) => {
                await attack(tool, call, property, value);
              },
            ),
            // Each argument draws from its own seed, so one run each still draws different values.
            { seed: FUZZ.seed + toolIndex * 1_000 + index, numRuns },
          );
        }
      },
      // A run is one call (two or three with a lead or report made first); room for a loaded machine and shrinking.
      Math.max(60_000, FUZZ.numRuns * 1_000),
    );
  });
});
