import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { recordStatements } from '../support/record-statements.ts';

/** The writes of usage metering among the statements sent through the control database's SQL client. */
function meteringWrites(statements: string[]) {
  return {
    usageCounters: statements.filter((text) => /\bINSERT INTO usage_counters\b/i.test(text)).length,
    apiKeys: statements.filter((text) => /\bUPDATE api_keys\b/i.test(text)).length,
  };
}

describe('live usage: counted in memory, written in batches', () => {
  let service: TestService;
  const statements: string[] = [];

  beforeAll(async () => {
    // No timed flush during the test: writes happen only when the test (usage endpoint, close) asks.
    service = await startTestService({ server: { usageFlushIntervalMs: 3_600_000 } });
    recordStatements(service.databases.live.sql, statements);
  });
  afterAll(() => service?.stop());

  const storedCalls = async (accountId: string) => {
    const rows = await service.databases.live.sql.query<{ calls: number }>(
      `SELECT calls FROM usage_counters WHERE account_id = $1 AND mode = 'live' AND day = (now() AT TIME ZONE 'UTC')::date`,
      [accountId],
    );
    return rows.length ? Number(rows[0]!.calls) : null;
  };
  const keyRow = async (accountId: string) => {
    const [row] = await service.databases.live.sql.query<{ calls_used: number; last_used_at: Date | null }>(
      'SELECT calls_used, last_used_at FROM api_keys WHERE account_id = $1',
      [accountId],
    );
    return row!;
  };

  it('counts 50 concurrent calls exactly, and the usage endpoint writes them in one statement per table', async () => {
    const { key, accountId } = await service.createKey({ plan: 'institutional', mode: 'live' });
    statements.length = 0;
    const responses = await Promise.all(Array.from({ length: 50 }, () => service.get('/api/signals?limit=1', key)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    // Each call got its own number: stored (0) + this process's unwritten count.
    const numbers = responses.map((response) => Number(response.headers.get('x-usage-calls'))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    // Nothing written in the request path.
    expect(meteringWrites(statements)).toEqual({ usageCounters: 0, apiKeys: 0 });
    expect(await storedCalls(accountId)).toBeNull();
    expect((await keyRow(accountId)).calls_used).toBe(0);

    const usage = await service.get('/api/v1/usage', key);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ mode: 'live', calls: 51, remaining: 100_000 - 51 });
    expect(meteringWrites(statements)).toEqual({ usageCounters: 1, apiKeys: 1 });
    expect(await storedCalls(accountId)).toBe(51);
    const row = await keyRow(accountId);
    expect(row.calls_used).toBe(51);
    expect(row.last_used_at).not.toBeNull();

    // Calls another gateway process has written show at the next read that writes (or re-reads) the count.
    await service.databases.live.sql.query(
      `UPDATE usage_counters SET calls = calls + 100 WHERE account_id = $1 AND mode = 'live'`,
      [accountId],
    );
    const again = await service.get('/api/v1/usage', key);
    expect(again.body).toMatchObject({ calls: 152 });
    expect(await storedCalls(accountId)).toBe(152);
  });

  it('keeps an account’s count between its calls: re-read by each flush, never in a call', async () => {
    const { key, accountId } = await service.createKey({ plan: 'institutional', mode: 'live' });
    expect((await service.get('/api/signals?limit=1', key)).headers.get('x-usage-calls')).toBe('1');
    await service.app.usageMeter.flush();
    await service.app.usageMeter.flush(); // a flush with nothing of this account to write
    // Another gateway process writes 100 calls; this process's next flush re-reads them.
    await service.databases.live.sql.query(
      `UPDATE usage_counters SET calls = calls + 100 WHERE account_id = $1 AND mode = 'live'`,
      [accountId],
    );
    await service.app.usageMeter.flush();
    statements.length = 0;
    const call = await service.get('/api/signals?limit=1', key);
    expect(call.headers.get('x-usage-calls')).toBe('102');
    expect(statements.filter((text) => /\bFROM usage_counters\b/i.test(text))).toEqual([]);
  });

  it('writes what is left when the server closes, several accounts in one statement per table', async () => {
    const first = await service.createKey({ plan: 'professional', mode: 'live' });
    const second = await service.createKey({ plan: 'analyst', mode: 'live' });
    statements.length = 0;
    const calls = [
      ...Array.from({ length: 30 }, () => service.get('/api/signals?limit=1', first.key)),
      ...Array.from({ length: 20 }, () => service.get('/api/signals?limit=1', second.key)),
    ];
    const responses = await Promise.all(calls);
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(meteringWrites(statements)).toEqual({ usageCounters: 0, apiKeys: 0 });

    await service.app.close();
    expect(meteringWrites(statements)).toEqual({ usageCounters: 1, apiKeys: 1 });
    expect(await storedCalls(first.accountId)).toBe(30);
    expect(await storedCalls(second.accountId)).toBe(20);
    expect((await keyRow(first.accountId)).calls_used).toBe(30);
    expect((await keyRow(second.accountId)).calls_used).toBe(20);
  });
});
