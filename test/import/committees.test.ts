import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runImport } from '../../gateway/import/run.ts';
import { COMMITTEE_JURISDICTION, overlappingCommittees } from '../../subgraphs/markets/committee-jurisdiction.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { expectCommitteeCasesFlagged } from '../markets/committee-cases.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/**
 * Committees on real data: the members and committee files of congress-legislators, the real Senate and House
 * disclosures, and company profiles carrying the real GICS sector and sub-industry of the S&P 500 file.
 */
describe('committees on imported real data', () => {
  let service: TestService;
  let key: string;
  const sql = <Row>(text: string, params: unknown[] = []) => service.databases.live.sql.query<Row>(text, params);
  const WINDOW = 'from=2012-01-01&to=2026-11-21';

  beforeAll(async () => {
    service = await startTestService();
    const live = service.databases.live;
    const options = { now: SNAPSHOT_DAY };
    await runImport(live, 'members', REAL_FILES.members, options);
    await runImport(live, 'sec-tickers', [REAL_FILES.tickers], options);
    await runImport(live, 'senate-trades', [REAL_FILES.senate], options);
    await runImport(live, 'house-trades', [REAL_FILES.house], options);
    // The SEC ticker file gives most tickers a profile without a sector; the S&P 500 file gives these theirs.
    await runImport(live, 'sp500-constituents', [REAL_FILES.sp500], options);
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  });
  afterAll(() => service?.stop());

  it('lists a member’s full committees, without chamber prefix, as the membership file seats them', async () => {
    const membership = parseYaml(await readFile(REAL_FILES.members[2]!, 'utf8')) as Record<
      string,
      { bioguide: string }[]
    >;
    const committees = parseYaml(await readFile(REAL_FILES.members[1]!, 'utf8')) as { thomas_id: string }[];
    const fullCommittees = new Set(committees.map((committee) => committee.thomas_id));
    const seats = Object.entries(membership).filter(
      ([id, members]) => fullCommittees.has(id) && members.some((seat) => seat.bioguide === 'W000779'),
    );
    const response = await service.get('/api/search/members?q=Wyden', key);
    expect(response.status).toBe(200);
    const wyden = response.body.members.find((member: { bioguide_id: string }) => member.bioguide_id === 'W000779');
    const [stored] = await sql<{ committees: string[] }>(
      `SELECT committees FROM members WHERE bioguide_id = 'W000779'`,
    );
    expect(wyden.committees).toEqual(stored!.committees);
    expect(wyden.committees).toHaveLength(seats.length);
    expect(wyden.committees).toContain('Finance');
    const all = await sql<{ name: string }>('SELECT DISTINCT unnest(committees) AS name FROM members');
    for (const { name } of all) {
      // "House Committee on Agriculture" is listed as "Agriculture" ("House Administration" is a real name).
      expect(name).not.toMatch(/^(House|Senate|Joint) (Committee|Select|Special|Permanent)/);
      // Every committee a real member sits on was reviewed for the jurisdiction table.
      expect(Object.keys(COMMITTEE_JURISDICTION)).toContain(name);
    }
  });

  it('flags each trade of a committee’s members with the committees covering its company, from the stored facts', async () => {
    const response = await service.get(`/api/congressional-trades?committee=Finance&${WINDOW}&limit=200`, key);
    expect(response.status).toBe(200);
    const trades = response.body.trades as {
      id: string;
      committee_overlap: boolean;
      overlapping_committees: string[];
    }[];
    const facts = await sql<{ id: string; committees: string[]; sector: string | null; industry: string | null }>(
      `SELECT c.id, m.committees, p.sector, p.industry FROM congressional_trades c
       JOIN members m ON m.bioguide_id = c.bioguide_id LEFT JOIN company_profiles p ON p.ticker = c.ticker
       WHERE c.id = ANY($1::uuid[])`,
      [trades.map((trade) => trade.id)],
    );
    const byId = new Map(facts.map((fact) => [fact.id, fact]));
    let flagged = 0;
    for (const trade of trades) {
      const fact = byId.get(trade.id)!;
      expect(trade.overlapping_committees).toEqual(overlappingCommittees(fact.committees, fact.sector, fact.industry));
      expect(trade.committee_overlap).toBe(trade.overlapping_committees.length > 0);
      // Finance covers health care (Medicare and Medicaid): flagged exactly when the company is in Health Care.
      expect(trade.overlapping_committees.includes('Finance')).toBe(fact.sector === 'Health Care');
      if (trade.committee_overlap) flagged++;
    }
    expect(flagged).toBeGreaterThan(0);
  });

  it('flags a real trade by a member of a covering committee with that committee', async () => {
    const cases = [
      ['Health, Education, Labor, and Pensions', `p.sector = 'Health Care'`],
      ['Commerce, Science, and Transportation', `p.sector = 'Information Technology'`],
      ['Energy and Commerce', `p.sector = 'Energy'`],
      ['Financial Services', `p.sector = 'Financials'`],
      ['Armed Services', `p.industry = 'Aerospace & Defense'`],
    ] as const;
    await expectCommitteeCasesFlagged(service, service.databases.live, key, cases);
  });

  it('does not flag a real trade whose company has no profile or a profile without sector', async () => {
    for (const missing of [
      'NOT EXISTS (SELECT 1 FROM company_profiles p WHERE p.ticker = c.ticker)',
      `EXISTS (SELECT 1 FROM company_profiles p WHERE p.ticker = c.ticker AND p.sector = '')`,
    ]) {
      const [row] = await sql<{ id: string }>(
        `SELECT c.id FROM congressional_trades c JOIN members m ON m.bioguide_id = c.bioguide_id
         WHERE c.superseded_by_id IS NULL AND cardinality(m.committees) > 0 AND c.ticker IS NOT NULL AND ${missing}
         ORDER BY c.id LIMIT 1`,
      );
      expect(row, missing).toBeDefined();
      const data = await service.graphql(
        `query ($id: ID!) { congressionalTrade(id: $id) { committeeOverlap overlappingCommittees } }`,
        { id: row!.id },
        key,
      );
      expect(data.congressionalTrade).toEqual({ committeeOverlap: false, overlappingCommittees: [] });
    }
  });

  it('filters real trades to those of the committee’s members', async () => {
    for (const committee of ['Finance', 'Armed Services', 'Energy and Commerce']) {
      const expected = await sql<{ id: string }>(
        `SELECT c.id FROM congressional_trades c JOIN members m ON m.bioguide_id = c.bioguide_id
         WHERE c.superseded_by_id IS NULL AND $1 = ANY(m.committees) AND c.trade_date BETWEEN '2012-01-01' AND '2026-11-21'
         ORDER BY c.trade_date DESC, c.id DESC`,
        [committee],
      );
      expect(expected.length, committee).toBeGreaterThan(0);
      const response = await service.get(
        `/api/congressional-trades?committee=${encodeURIComponent(committee)}&${WINDOW}&limit=200`,
        key,
      );
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(expected.length);
      expect(response.body.trades.map((trade: { id: string }) => trade.id)).toEqual(
        expected.slice(0, 200).map((row) => row.id),
      );
    }
  });
});
