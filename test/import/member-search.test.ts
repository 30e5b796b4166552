import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** Typo-tolerant member search and the trades `member` filter over the real members, former members and trades. */
describe('member search on imported real data', () => {
  let service: TestService;
  let key: string;
  const sql = (text: string, params: unknown[] = []) =>
    service.databases.live.sql.query<Record<string, any>>(text, params);
  const search = async (q: string) => {
    const response = await service.get(`/api/search/members?q=${encodeURIComponent(q)}`, key);
    expect(response.status, q).toBe(200);
    return response.body.members as { bioguide_id: string; name: string; chamber: string; similarity: number }[];
  };
  const memberId = async (lastName: string, chamber?: string) => {
    const rows = await sql(
      `SELECT bioguide_id FROM members WHERE last_name = $1 AND in_office AND ($2::text IS NULL OR chamber = $2)`,
      [lastName, chamber ?? null],
    );
    expect(rows, lastName).toHaveLength(1);
    return rows[0]!.bioguide_id as string;
  };

  beforeAll(async () => {
    service = await startTestService();
    const live = service.databases.live;
    const options = { now: SNAPSHOT_DAY };
    await runImport(live, 'members', REAL_FILES.members, options);
    await runImport(live, 'legislators-historical', [REAL_FILES.formerMembers], options);
    await runImport(live, 'senate-trades', [REAL_FILES.senate], options);
    await runImport(live, 'house-trades', [REAL_FILES.house], options);
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  });
  afterAll(() => service?.stop());

  it('finds members through one or two typos', async () => {
    const misspelt: [string, string][] = [
      ['pelosy', 'Pelosi'],
      ['tubervile', 'Tuberville'],
      ['gotheimer', 'Gottheimer'],
      ['kahnna', 'Khanna'],
      ['crenshw', 'Crenshaw'],
    ];
    for (const [q, lastName] of misspelt) {
      const members = await search(q);
      expect(members[0]?.bioguide_id, q).toBe(await memberId(lastName));
      expect(members[0]!.similarity, q).toBeGreaterThan(0);
    }
    // A name that matches as written is not widened by typos: "warren" is never Darren Soto.
    const warren = await search('warren');
    expect(warren.every((member) => member.name.toLowerCase().includes('warren'))).toBe(true);
  });

  it('honours a title and ranks by similarity, then trades', async () => {
    const senator = await memberId('Warren', 'senate');
    expect((await search('Sen. Warren'))[0]!.bioguide_id).toBe(senator);
    expect((await search('Senator Warren'))[0]!.bioguide_id).toBe(senator);
    expect((await search('Rep. Warren'))[0]!.chamber).toBe('house');
    expect((await search('Congressman Warren'))[0]!.chamber).toBe('house');
    // Without a title: equally similar names go by trades in force.
    const members = await search('warren');
    const counts = await sql(
      `SELECT bioguide_id, (SELECT count(*)::int FROM congressional_trades c
         WHERE c.bioguide_id = m.bioguide_id AND c.superseded_by_id IS NULL) AS trades
       FROM members m WHERE bioguide_id = ANY($1::text[])`,
      [members.map((member) => member.bioguide_id)],
    );
    const trades = new Map(counts.map((row) => [row.bioguide_id, row.trades as number]));
    for (let i = 1; i < members.length; i += 1) {
      const [before, after] = [members[i - 1]!, members[i]!];
      expect(before.similarity).toBeGreaterThanOrEqual(after.similarity);
      if (before.similarity === after.similarity)
        expect(trades.get(before.bioguide_id)).toBeGreaterThanOrEqual(trades.get(after.bioguide_id)!);
    }
  });

  it('finds former members, with their party', async () => {
    const [perdue] = await search('perdue');
    expect(perdue).toMatchObject({ bioguide_id: 'P000612', name: 'David Perdue', party: 'R', chamber: 'senate' });
    const [loeffler] = await search('loefler');
    expect(loeffler).toMatchObject({ bioguide_id: 'L000594', party: 'R' });
    const [expected] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades
       WHERE bioguide_id = 'P000612' AND superseded_by_id IS NULL AND trade_date >= '2008-01-01'`,
    );
    const trades = await service.get('/api/congressional-trades?member=perdue&party=R&from=2008-01-01', key);
    expect(trades.body.total).toBe(expected!.n);
    expect(expected!.n).toBeGreaterThan(0);
  });

  it('filters trades by a misspelt name and by a title', async () => {
    const [expected] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades
       WHERE member_name = 'Nancy Pelosi' AND superseded_by_id IS NULL AND trade_date >= '2008-01-01'`,
    );
    const response = await service.get('/api/congressional-trades?member=pelosy&from=2008-01-01&limit=200', key);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(expected!.n);
    expect(new Set(response.body.trades.map((trade: { member_name: string }) => trade.member_name))).toEqual(
      new Set(['Nancy Pelosi']),
    );
    const gottheimer = await service.graphql(
      `query { congressionalTrades(member: "gotheimer", from: "2008-01-01", limit: 1) { nodes { memberName } } }`,
      {},
      key,
    );
    expect(gottheimer.congressionalTrades.nodes).toEqual([{ memberName: 'Josh Gottheimer' }]);
    // A title is a chamber: "Rep. Warren" is Warren Davidson's trades, "Sen. Warren" none of his.
    const house = await service.get('/api/congressional-trades?member=Rep.%20Warren&from=2008-01-01', key);
    const senate = await service.get('/api/congressional-trades?member=Sen.%20Warren&from=2008-01-01', key);
    const [davidson] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades
       WHERE member_name = 'Warren Davidson' AND superseded_by_id IS NULL AND trade_date >= '2008-01-01'`,
    );
    expect(house.body.total).toBe(davidson!.n);
    expect(senate.body.trades.every((trade: { chamber: string }) => trade.chamber === 'senate')).toBe(true);
    const contradiction = await service.get(
      '/api/congressional-trades?member=Sen.%20Warren&chamber=house&from=2008-01-01',
      key,
    );
    expect(contradiction.body.total).toBe(0);
  });

  it('answers the same through GraphQL', async () => {
    const data = await service.graphql(
      `query { members(q: "kahnna", limit: 3) { similarity member { bioguideId } } }`,
      {},
      key,
    );
    expect(data.members[0].member.bioguideId).toBe(await memberId('Khanna'));
  });
});
