import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../gateway/auth/api-keys.ts';
import { hashPassword } from '../../gateway/auth/passwords.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: string; message?: string; token?: string };
}

describe('login under attack', () => {
  let service: TestService;
  const owner = 'raced.owner@example.com';
  const password = 'the owner knows this one';

  beforeAll(async () => {
    // One hash at a time and one waiting, so the hashing bound is reached by a modest burst.
    service = await startTestService({ server: { login: { hashConcurrency: 1, hashQueue: 1 } } });
    const account = await createAccount(service.databases.live, 'professional', owner);
    await service.databases.live.prisma.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword(password) },
    });
  });
  afterAll(() => service?.stop());

  /** POST /api/auth/login from a chosen loopback address, so the server sees another client IP. */
  function login(email: string, pass: string, from = '127.0.0.1'): Promise<Answer> {
    const payload = JSON.stringify({ email, password: pass });
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        `${service.url}/api/auth/login`,
        {
          method: 'POST',
          localAddress: from,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              retryAfter: response.headers['retry-after'] as string | undefined,
              body: JSON.parse(text),
            }),
          );
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  it('gives 100 parallel wrong passwords at most 10 checks; the rest are 429 with Retry-After', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => login(owner, `guess-${index}`)));
    const unauthorized = answers.filter((answer) => answer.status === 401);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(unauthorized.length).toBeLessThanOrEqual(10);
    expect(unauthorized.length + limited.length).toBe(100);
    expect(limited.every((answer) => answer.body.error === 'rate_limited' && Number(answer.retryAfter) >= 1)).toBe(
      true,
    );
    // The attacker's IP is spent, even for the right password: nothing is hashed for it any more.
    expect((await login(owner, password)).status).toBe(429);
  });

  it('still lets the owner log in from another IP', async () => {
    const answer = await login(owner, password, '127.0.0.2');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.token).toBeTruthy();
  });

  it('does not throttle the owner logging in again and again, and a success clears that IP’s failures', async () => {
    // 28 logins in all: under the per-address limit of anonymous logins (30 a minute), which is not under test.
    const from = '127.0.0.4';
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const answer = await login(owner, password, from);
      expect(answer.status, `login ${attempt + 1}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await login(owner, `typo-${attempt}`, from)).status).toBe(401);
    expect((await login(owner, password, from)).status).toBe(200);
    // Five failures before the success no longer count: ten more are checked before the IP is throttled.
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect((await login(owner, `typo-again-${attempt}`, from)).status).toBe(401);
    expect((await login(owner, password, from)).status).toBe(429);
  });

  it('bounds concurrent hashing: a burst to distinct addresses is answered at once, never with a 5xx', async () => {
    const started = Date.now();
    // From 50 addresses, so the per-address limit of anonymous logins stays out of the way of the hashing bound.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        login(`someone-${index}@example.com`, 'whatever', `127.0.1.${index + 1}`),
      ),
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    const busy = answers.filter((answer) => answer.status === 429);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.body).toEqual({
        error: 'rate_limited',
        message: 'Too many logins are being checked right now; retry in 1 second.',
      });
      expect(answer.retryAfter).toBe('1');
    }
  });
});
