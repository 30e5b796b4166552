import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp } from '../support/mcp-client.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let client: Client;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 1_000 });
  const { key } = await service.createKey({ plan: 'professional', mode: 'sandbox' });
  client = await connectMcp(service.url, key);
});
afterAll(async () => {
  await client?.close();
  await service?.stop();
});

async function structured(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as any;
}

/** Every page of a tool's answer, followed by `next_cursor` as an agent would. */
async function everyItem(name: string, args: Record<string, unknown>, list: string) {
  const items: any[] = [];
  let answer = await structured(name, args);
  items.push(...answer[list]);
  while (answer.next_cursor) {
    answer = await structured(name, { cursor: answer.next_cursor });
    items.push(...answer[list]);
  }
  return items;
}

describe('an agent’s question, with tool calls only', () => {
  it('answers "which senators bought NVDA in the last 90 days, and what did the company file since?"', async () => {
    const purchases = await everyItem(
      'congressional_trades',
      { ticker: 'NVDA', chamber: 'senate', trade_type: 'purchase', days: 90, fields: ['member_name', 'trade_date'] },
      'trades',
    );
    const senators = [...new Set(purchases.map((trade) => trade.member_name as string))].sort();
    const since = purchases.map((trade) => trade.trade_date as string).sort()[0];

    // The same question asked of the database itself.
    const [stored] = await service.databases.sandbox.sql.query<{ names: string[] | null; first: string | null }>(
      `SELECT array_agg(DISTINCT member_name ORDER BY member_name) AS names, min(trade_date)::text AS first
         FROM congressional_trades
        WHERE ticker = 'NVDA' AND chamber = 'senate' AND trade_type = 'purchase'
          AND trade_date >= current_date - 90`,
    );
    expect(senators.length).toBeGreaterThan(0);
    expect(senators).toEqual(stored!.names);
    expect(since).toBe(stored!.first);

    const filings = await everyItem(
      'signals',
      { ticker: 'NVDA', signal_type: 'sec_filing', limit: 100, fields: ['filing_type', 'created_at', 'ai_summary'] },
      'signals',
    );
    const filedSince = filings.filter((signal) => signal.created_at.slice(0, 10) >= since!);
    const [filed] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM signals
        WHERE ticker = 'NVDA' AND signal_type = 'sec_filing' AND created_at >= $1::date`,
      [since],
    );
    expect(filedSince).toHaveLength(filed!.n);
    expect(filedSince.every((signal) => Object.keys(signal).length === 3)).toBe(true);
  });
});
