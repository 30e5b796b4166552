import { expect } from 'vitest';
import type { Database } from '../../subgraphs/platform/database.ts';
import type { TestService } from '../support/service.ts';

/**
 * For each (committee, profile condition on `p`), the first stored trade in force by a member of that committee in
 * a company meeting the condition must exist and come back flagged with that committee. Shared by the sandbox and
 * the real-data committee tests, which differ only in the database and the sector vocabulary.
 */
export async function expectCommitteeCasesFlagged(
  service: TestService,
  database: Database,
  key: string,
  cases: readonly (readonly [committee: string, condition: string])[],
): Promise<void> {
  for (const [committee, condition] of cases) {
    const [row] = await database.sql.query<{ id: string }>(
      `SELECT c.id FROM congressional_trades c JOIN members m ON m.bioguide_id = c.bioguide_id
       JOIN company_profiles p ON p.ticker = c.ticker
       WHERE c.superseded_by_id IS NULL AND $1 = ANY(m.committees) AND ${condition} ORDER BY c.id LIMIT 1`,
      [committee],
    );
    expect(row, committee).toBeDefined();
    const data = await service.graphql(
      `query ($id: ID!) { congressionalTrade(id: $id) { committeeOverlap overlappingCommittees } }`,
      { id: row!.id },
      key,
    );
    expect(data.congressionalTrade.committeeOverlap, committee).toBe(true);
    expect(data.congressionalTrade.overlappingCommittees).toContain(committee);
  }
}
