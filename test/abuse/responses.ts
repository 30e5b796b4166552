import { expect } from 'vitest';
import { STATUS_BY_CODE } from '../../subgraphs/platform/errors.ts';

/** Statuses the HTTP layer answers for a request it cannot take (body, URL or headers too large, wrong type). */
const FRAMEWORK_STATUSES = new Set([413, 414, 415, 431]);

const ERROR_BODY_KEYS = new Set(['error', 'message', 'details', 'redirect']);

export interface Exchange {
  /** What was sent, shown when an assertion fails. */
  request: string;
  status: number;
  contentType: string;
  text: string;
}

/**
 * Never a 5xx; an error is the documented JSON body (`error` a known code matching the status, `message`,
 * `details` of strings on a 400, nothing else) and names no framework code or source file.
 */
export function expectDocumentedResponse({ request, status, contentType, text }: Exchange): void {
  const context = `${request}\n→ ${status} ${text.slice(0, 500)}`;
  expect(status, context).toBeLessThan(500);
  if (status < 400) return;
  expect(contentType, context).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(
    Object.keys(body).filter((key) => !ERROR_BODY_KEYS.has(key)),
    context,
  ).toEqual([]);
  expect(typeof body.error === 'string' && Object.hasOwn(STATUS_BY_CODE, body.error), context).toBe(true);
  const code = body.error as keyof typeof STATUS_BY_CODE;
  if (FRAMEWORK_STATUSES.has(status)) expect(code, context).toBe('invalid_parameter');
  else expect(STATUS_BY_CODE[code], context).toBe(status);
  expect(typeof body.message, context).toBe('string');
  if (status === 400) {
    expect(body.details, context).toBeTypeOf('object');
    expect(
      Object.values(body.details as object).every((problem) => typeof problem === 'string'),
      context,
    ).toBe(true);
  }
  expectNothingLeaked(text, context);
}

/** Framework codes, stack frames, SQL text, ORM names and source or install paths: none belongs in an answer. */
const LEAKS = /FST_ERR|\.ts:\d+|\bat [\w.<>]+ \(|SELECT |Prisma|node_modules|\/(?:[\w.-]+\/)+[\w.-]+\.[cm]?[jt]s\b/;

export function expectNothingLeaked(text: string, context: string): void {
  expect(text, context).not.toMatch(LEAKS);
}

/** A JSON-RPC error answer: its status, its code, a message, and nothing leaked. */
export function expectJsonRpcError({ request, status, contentType, text }: Exchange, wanted: number, code: number) {
  const context = `${request}\n→ ${status} ${text.slice(0, 500)}`;
  expect(status, context).toBe(wanted);
  expect(contentType, context).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
  expect(body.jsonrpc, context).toBe('2.0');
  expect(body.error?.code, context).toBe(code);
  expect(typeof body.error?.message, context).toBe('string');
  expectNothingLeaked(text, context);
}
