import { expect } from 'vitest';
import type { HttpResult } from '../support/service.ts';

/** The docs/design.md error body: `{error, message}`, `details` naming the parameters on a 400. */
export function expectError(response: HttpResult, status: number, code: string, parameters: string[] = []) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  expect(response.body.error).toBe(code);
  expect(typeof response.body.message).toBe('string');
  expect(response.text).not.toMatch(/SELECT|prisma|at .*\.ts:\d+/i);
  if (status === 400) {
    expect(Object.keys(response.body).sort()).toEqual(['details', 'error', 'message']);
    expect(Object.keys(response.body.details).sort()).toEqual([...parameters].sort());
  }
}
