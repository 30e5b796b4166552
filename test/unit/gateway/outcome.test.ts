import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { refusalOf } from '../../../gateway/access/operation-guard.ts';
import { answeredOutcome, failedOutcome } from '../../../gateway/execution/outcome.ts';
import { ApiError, ServiceUnavailableError } from '../../../subgraphs/platform/errors.ts';

/**
 * gateway/execution/outcome.ts is the one copy of Apollo Server's error normalisation, for the outcomes `execute`
 * makes itself; test/gateway/graphql-fast-path.test.ts compares its answers with Apollo Server's over HTTP. Here,
 * without a server: what each kind of outcome carries.
 */
describe('execution outcomes', () => {
  it('takes a refusal’s status and headers off the error into the outcome', () => {
    const refusal = refusalOf(new ApiError('rate_limited', 'search is limited'), { 'retry-after': '17' });
    const outcome = failedOutcome(refusal);
    expect(outcome.status).toBe(429);
    expect(outcome.headers).toEqual([
      ['cache-control', 'no-store'],
      ['retry-after', '17'],
    ]);
    expect(outcome.result).toEqual({
      errors: [{ message: 'search is limited', extensions: { code: 'rate_limited' } }],
    });
  });

  it('answers 500 for a thrown error without a status, in our words', () => {
    const outcome = failedOutcome(new Error('socket hang up at pg/lib/client.js:545'));
    expect(outcome.status).toBe(500);
    expect(JSON.stringify(outcome.result)).not.toContain('pg/lib');
    expect(outcome.result.errors?.[0]?.extensions?.code).toBe('internal_error');
  });

  it('keeps data beside resolver errors, 200, and 503 when a dependency is down', () => {
    const notFound = new GraphQLError('No company b2b_9.', {
      path: ['company'],
      extensions: { code: 'not_found' },
    });
    const answered = answeredOutcome({ data: { company: null }, errors: [notFound] });
    expect(answered.status).toBe(200);
    expect(answered.result).toEqual({
      errors: [{ message: 'No company b2b_9.', path: ['company'], extensions: { code: 'not_found' } }],
      data: { company: null },
    });
    // `errors` first, as Apollo Server writes a response over HTTP.
    expect(Object.keys(answered.result)).toEqual(['errors', 'data']);

    const down = new ServiceUnavailableError('The markets service is not reachable. Try again shortly.');
    const unavailable = answeredOutcome({
      data: null,
      errors: [new GraphQLError(down.message, { extensions: down.extensions, originalError: down })],
    });
    expect(unavailable.status).toBe(503);
  });

  it('answers a clean result 200 with data only, never cacheable', () => {
    expect(answeredOutcome({ data: { companies: [] } })).toEqual({
      status: 200,
      headers: [['cache-control', 'no-store']],
      result: { data: { companies: [] } },
    });
  });
});
