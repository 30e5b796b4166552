import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

// Member search counts each candidate's trades once, to rank them, and answers `trades_count` from that count
// (subgraphs/markets/member-match.ts): both must be what a plain SQL reading of the sandbox data gives.
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  ({ key } = await service.createKey({ mode: 'sandbox', plan: 'institutional' }));
});
afterAll(() => service?.stop());

interface Found {
  bioguide_id: string;
  similarity: number;
  trades_count: number;
}

/** Members whose folded name contains the word, by similarity, trades in force, name: the words tier in SQL. */
async function rankedBySql(word: string, limit: number) {
  return service.databases.sandbox.sql.query<{ bioguide_id: string; trades: number }>(
    `SELECT m.bioguide_id, (SELECT count(*)::int FROM congressional_trades c
                             WHERE c.bioguide_id = m.bioguide_id AND c.superseded_by_id IS NULL) AS trades
       FROM members m
      WHERE markets_fold_name(coalesce(m.name_folded, m.full_name)) LIKE '%' || $1 || '%'
      ORDER BY word_similarity($1, markets_fold_name(coalesce(m.name_folded, m.full_name))) DESC, trades DESC,
               m.full_name, m.bioguide_id
      LIMIT $2`,
    [word, limit],
  );
}

describe('member search on the sandbox data', () => {
  it.each(['an', 'er', 'son'])('ranks the members matching %s and counts their trades as SQL does', async (word) => {
    const response = await service.get(`/api/search/members?q=${word}&limit=50`, key);
    expect(response.status).toBe(200);
    const found = response.body.members as Found[];
    const expected = await rankedBySql(word, 50);
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.some((row) => row.trades > 0)).toBe(true);
    expect(found.map((member) => [member.bioguide_id, member.trades_count])).toEqual(
      expected.map((row) => [row.bioguide_id, row.trades]),
    );
  });
});
