/**
 * REST errors as docs/api.md "Errors" documents them: every problem of a request in one 400, each in the API's
 * words (never a validator's), the framework's own refusals in the same body, and WWW-Authenticate on every 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import type { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { parseArguments } from '../../subgraphs/platform/validation.ts';
import { ATTACKED_ROUTES } from '../abuse/route-catalog.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/** What zod and graphql-js say in their own words; none of it may reach a client. */
const VALIDATOR_TEXT =
  /Invalid (input|option|string|email|UUID|ISO)|expected \w+, received|Too (small|big)|Unrecognized key|cannot represent/;

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
});
afterAll(() => service?.stop());

describe('every problem of a request at once', () => {
  it.each([
    [
      'a mistyped and an out-of-range parameter',
      'GET',
      '/api/v1/b2b/companies?per_page=abc&min_score=500&colour=red',
      undefined,
      ['per_page', 'min_score', 'colour'],
    ],
    [
      'a query parameter and a path parameter',
      'GET',
      '/api/signals/ticker/$$$?limit=abc',
      undefined,
      ['limit', 'ticker'],
    ],
    [
      'an unknown query parameter and a missing body field',
      'POST',
      '/api/v1/leads?draft=1',
      {},
      ['draft', 'record_id'],
    ],
    [
      'a malformed record id and a body field too long',
      'POST',
      '/api/v1/leads',
      { record_id: 'nope', notes: 'x'.repeat(2001) },
      ['record_id', 'notes'],
    ],
    [
      'a malformed path id and a body field too long',
      'PATCH',
      '/api/v1/leads/nope',
      { notes: 'x'.repeat(2001) },
      ['notes', 'id'],
    ],
  ] as const)('%s', async (_case, method, path, body, names) => {
    const response = await service.request(method, path, { key, body });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(Object.keys(response.body.details).sort(), response.text).toEqual([...names].sort());
    expect(response.body.message).toBe(`Invalid parameter: ${Object.keys(response.body.details).join(', ')}.`);
  });
});

describe("messages in the API's words", () => {
  it('phrases every kind of rule without a message of its own', () => {
    const schema = z.strictObject({
      name: z.string(),
      count: z.number().int().min(1).max(5),
      size: z.number().max(10),
      kind: z.enum(['a', 'b']),
      email: z.email(),
      tags: z.array(z.string()).max(2),
      title: z.string().min(1),
      code: z.string().regex(/^x/),
      id: z.uuid(),
    });
    let details: Record<string, string> | undefined;
    try {
      parseArguments(schema, {
        name: 5,
        count: 1.5,
        size: 11,
        kind: 'c',
        email: 'no',
        tags: ['a', 'b', 'c'],
        title: '',
        code: 'y',
        id: 'x',
        extra: true,
      });
    } catch (error) {
      details = (error as BadRequestError).details;
    }
    expect(details).toEqual({
      name: 'must be a string',
      count: 'must be an integer',
      size: 'must be at most 10',
      kind: 'must be one of a, b',
      email: 'must be an e-mail address',
      tags: 'must have at most 2 items',
      title: 'must not be empty',
      code: 'is not in the expected form',
      id: 'must be a UUID',
      extra: 'is not a parameter of this endpoint',
    });
    expect(() => parseArguments(z.object({ name: z.string() }), {})).toThrow(
      expect.objectContaining({ details: { name: 'is required' } }),
    );
  });

  it('answers hand-written routes (login, keys) and GraphQL-backed ones without validator text', async () => {
    const login = await service.request('POST', '/api/auth/login', { body: { email: 5 } });
    expect(login.body.details).toEqual({ email: 'must be a string', password: 'is required' });
    const keys = await service.request('POST', '/api/keys', { key, body: { name: 5 } });
    expect(keys.body.details).toEqual({ name: 'must be a string' });
    const members = await service.request('GET', '/api/search/members?limit=5', { key });
    expect(members.body.details).toEqual({ q: 'is required' });
  });

  it('never shows validator text, whatever a route is sent', async () => {
    const queryValues = ['', 'abc', '-1', '1.5', '99999999999', 'x'.repeat(300), '2026-02-30', '$$$'];
    const bodyValues: unknown[] = [null, 5, 'x', [], {}, true, 'x'.repeat(3000), [1, 2]];
    let calls = 0;
    let routeKey = key;
    const call = async (method: string, path: string, body?: unknown) => {
      // A fresh key every 200 calls stays under the plan's 1,000 a minute.
      if (++calls % 200 === 0) ({ key: routeKey } = await service.createKey({ plan: 'institutional', mode: 'live' }));
      const response = await service.request(method, path, { key: routeKey, body });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      expect(response.text, `${method} ${path} ${JSON.stringify(body)}`).not.toMatch(VALIDATOR_TEXT);
    };
    for (const route of ATTACKED_ROUTES) {
      const path = route.path.replace(/:(\w+)/g, (_match, name: string) =>
        name === 'ticker' ? 'NVDA' : name === 'date' ? '2024-01-02' : 'lead_1',
      );
      for (const name of route.query) {
        for (const value of queryValues) {
          await call(route.method, `${path}?${name}=${encodeURIComponent(value)}`, route.body.length ? {} : undefined);
        }
      }
      for (const field of route.body)
        for (const value of bodyValues) await call(route.method, path, { [field]: value });
    }
  }, 300_000);
});

describe("the framework's refusals and 401s", () => {
  it('answers a body that is not JSON, an unsupported type and a path that is not UTF-8 with the documented body', async () => {
    const send = async (path: string, init: RequestInit) => {
      const response = await fetch(`${service.url}${path}`, init);
      return { status: response.status, body: await response.json() };
    };
    const headers = { authorization: `Bearer ${key}` };
    expect(
      await send('/api/v1/leads', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"record_id":',
      }),
    ).toEqual({
      status: 400,
      body: {
        error: 'invalid_parameter',
        message: 'The request body is not valid JSON.',
        details: { body: 'is not valid JSON (member names __proto__ and constructor.prototype are refused)' },
      },
    });
    expect(
      await send('/api/v1/leads', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/xml' },
        body: '<lead/>',
      }),
    ).toEqual({
      status: 415,
      body: {
        error: 'invalid_parameter',
        message: 'The request body must be JSON (Content-Type: application/json).',
        details: { 'content-type': 'must be application/json' },
      },
    });
    expect(await send('/api/v1/leads/%E0%A4%A', { headers })).toEqual({
      status: 400,
      body: {
        error: 'invalid_parameter',
        message: 'The request path is malformed.',
        details: { path: 'is not valid percent-encoded UTF-8' },
      },
    });
  });

  it('sends WWW-Authenticate: Bearer with every 401, a failed login included', async () => {
    const { createAccount } = await import('../../gateway/auth/api-keys.ts');
    const account = await createAccount(service.databases.live, 'analyst', 'rest.errors@example.com');
    await service.databases.live.prisma.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword('correct horse battery') },
    });
    for (const response of [
      await service.request('GET', '/api/signals'),
      await service.request('GET', '/api/signals', { key: 'sk_live_unknown' }),
      await service.request('POST', '/api/auth/login', {
        body: { email: 'rest.errors@example.com', password: 'wrong' },
      }),
    ]) {
      expect(response.status, response.text).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    }
  });
});
