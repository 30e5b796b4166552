import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITTEE_JURISDICTION, overlappingCommittees } from '../../subgraphs/markets/committee-jurisdiction.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';
import { expectCommitteeCasesFlagged } from './committee-cases.ts';
import { expectError } from '../support/expect-error.ts';

/** Committee overlap and the `committee` filter on the generated sandbox data (docs/api.md, "Committees"). */
let service: TestService;
let key: string;

const UNPROFILED_TRADE = '00000000-0000-4000-8000-0000000c0001';
const OVERLAP_CASES = [
  ['Financial Services', `p.sector = 'Financial Services'`],
  ['Armed Services', `p.industry = 'Aerospace & Defense'`],
] as const;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  ({ key } = await service.createKey({ plan: 'institutional' }));
  // A trade of a ticker without a profile, by a member on Armed Services: no sector, so no overlap.
  await service.databases.sandbox.sql.query(
    `INSERT INTO congressional_trades (id, bioguide_id, member_name, party, chamber, ticker, asset_description,
       asset_type, trade_type, owner, amount_range, trade_date, disclosure_date, source, natural_key)
     SELECT $1, bioguide_id, full_name, party, chamber, 'ZZZZ', 'Unprofiled Co - Common Stock', 'stock', 'purchase',
       'self', '$1,001 - $15,000', current_date - 3, current_date - 1, 'fixture', 'committee-overlap-unprofiled'
     FROM members WHERE 'Armed Services' = ANY(committees) ORDER BY bioguide_id LIMIT 1`,
    [UNPROFILED_TRADE],
  );
  // A Financial Services member's trade in a financial company and an Armed Services member's in defense, so the
  // cases below do not hang on whether the day's generated trades happen to pair them.
  for (const [committee, condition] of OVERLAP_CASES) {
    await service.databases.sandbox.sql.query(
      `INSERT INTO congressional_trades (id, bioguide_id, member_name, party, chamber, ticker, asset_description,
         asset_type, trade_type, owner, amount_range, trade_date, disclosure_date, source, natural_key)
       SELECT gen_random_uuid(), m.bioguide_id, m.full_name, m.party, m.chamber, p.ticker, p.company_name, 'stock',
         'purchase', 'self', '$1,001 - $15,000', current_date - 3, current_date - 1, 'fixture',
         'committee-overlap-' || $1
       FROM members m, company_profiles p WHERE $1 = ANY(m.committees) AND ${condition}
       ORDER BY m.bioguide_id, p.ticker LIMIT 1`,
      [committee],
    );
  }
});
afterAll(() => service?.stop());

interface TradeRow {
  id: string;
  bioguide_id: string | null;
  committee_overlap: boolean;
  overlapping_committees: string[];
}

/** Each trade's member committees and company profile, as stored. */
async function storedFacts(ids: string[]) {
  const rows = await service.databases.sandbox.sql.query<{
    id: string;
    committees: string[] | null;
    sector: string | null;
    industry: string | null;
  }>(
    `SELECT c.id, m.committees, p.sector, p.industry FROM congressional_trades c
     LEFT JOIN members m ON m.bioguide_id = c.bioguide_id LEFT JOIN company_profiles p ON p.ticker = c.ticker
     WHERE c.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Ids of the trades in force by members on a committee, newest first: the database's answer to the filter. */
async function committeeTradeIds(committee: string): Promise<string[]> {
  const rows = await service.databases.sandbox.sql.query<{ id: string }>(
    `SELECT c.id FROM congressional_trades c JOIN members m ON m.bioguide_id = c.bioguide_id
     WHERE c.superseded_by_id IS NULL AND $1 = ANY(m.committees) AND c.trade_date >= current_date - 3650
     ORDER BY c.trade_date DESC, c.id DESC`,
    [committee],
  );
  return rows.map((row) => row.id);
}

describe('committee overlap on trades', () => {
  it('names every committee the seed writes in the reviewed jurisdiction table', async () => {
    const rows = await service.databases.sandbox.sql.query<{ name: string }>(
      'SELECT DISTINCT unnest(committees) AS name FROM members',
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const { name } of rows) expect(Object.keys(COMMITTEE_JURISDICTION)).toContain(name);
  });

  it('flags each listed trade with the member’s committees covering its company, from the stored facts', async () => {
    const response = await service.get('/api/congressional-trades?days=3650&limit=200', key);
    expect(response.status).toBe(200);
    const trades = response.body.trades as TradeRow[];
    const facts = await storedFacts(trades.map((trade) => trade.id));
    let flagged = 0;
    for (const trade of trades) {
      const fact = facts.get(trade.id)!;
      const expected = overlappingCommittees(fact.committees ?? [], fact.sector, fact.industry);
      expect(trade.overlapping_committees, trade.id).toEqual(expected);
      expect(trade.committee_overlap).toBe(expected.length > 0);
      for (const committee of trade.overlapping_committees) expect(fact.committees).toContain(committee);
      if (trade.committee_overlap) flagged++;
    }
    expect(flagged).toBeGreaterThan(0);
    expect(flagged).toBeLessThan(trades.length);
  });

  it('flags a Financial Services member’s trade in a financial company and an Armed Services member’s in defense', async () => {
    await expectCommitteeCasesFlagged(service, service.databases.sandbox, key, OVERLAP_CASES);
  });

  it('does not flag a trade whose company has no profile, even by a member of a covering committee', async () => {
    const data = await service.graphql(
      `query ($id: ID!) { congressionalTrade(id: $id) { ticker member { committees } committeeOverlap overlappingCommittees } }`,
      { id: UNPROFILED_TRADE },
      key,
    );
    expect(data.congressionalTrade).toMatchObject({
      ticker: 'ZZZZ',
      committeeOverlap: false,
      overlappingCommittees: [],
    });
    expect(data.congressionalTrade.member.committees).toContain('Armed Services');
  });

  it('reads a page’s committees and profiles in two queries, whatever its size', async () => {
    const before = service.queries.length;
    const response = await service.get('/api/congressional-trades?days=3650&limit=200', key);
    expect(response.body.trades.length).toBeGreaterThan(100);
    const reads = service.queries.slice(before);
    expect(readsOf(reads, 'members')).toHaveLength(1);
    expect(readsOf(reads, 'company_profiles')).toHaveLength(1);
  });
});

describe('the committee filter', () => {
  it('lists only trades by members of the committee, over REST and GraphQL, in any case', async () => {
    const expected = await committeeTradeIds('Armed Services');
    expect(expected.length).toBeGreaterThan(0);
    const response = await service.get('/api/congressional-trades?committee=Armed%20Services&days=3650&limit=200', key);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(expected.length);
    expect(response.body.trades.map((trade: TradeRow) => trade.id)).toEqual(expected.slice(0, 200));
    const lower = await service.get('/api/congressional-trades?committee=armed%20SERVICES&days=3650&limit=1', key);
    expect(lower.body.total).toBe(expected.length);
    const data = await service.graphql(
      `{ congressionalTrades(committee: "Armed Services", days: 3650) { pageInfo { total } }
         congressionalTradesConnection(committee: "Armed Services", days: 3650, first: 500) { edges { node { id } } } }`,
      {},
      key,
    );
    expect(data.congressionalTrades.pageInfo.total).toBe(expected.length);
    expect(
      data.congressionalTradesConnection.edges.map((edge: { node: { id: string } }) => edge.node.id).sort(),
    ).toEqual([...expected].sort());
  });

  it('combines with the other filters', async () => {
    const expected = await committeeTradeIds('Finance');
    const response = await service.get(
      '/api/congressional-trades?committee=Finance&chamber=senate&days=3650&limit=200',
      key,
    );
    expect(response.status).toBe(200);
    expect(response.body.total).toBeGreaterThan(0);
    expect(response.body.total).toBeLessThanOrEqual(expected.length);
    for (const trade of response.body.trades) expect(expected).toContain(trade.id);
  });

  it('refuses an unknown, empty or over-long committee with a 400 naming the parameter', async () => {
    for (const value of ['Armed%20Forces', '%20%20', 'x'.repeat(151), 'Armed']) {
      expectError(await service.get(`/api/congressional-trades?committee=${value}`, key), 400, 'invalid_parameter', [
        'committee',
      ]);
    }
    const result = await service.graphqlRaw(`{ congressionalTrades(committee: "Nope") { nodes { id } } }`, {}, key);
    expect(result.body.errors[0].extensions.code).toBe('invalid_parameter');
    expect(result.body.errors[0].extensions.details).toHaveProperty('committee');
  });
});
