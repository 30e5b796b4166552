import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows } from '../../gateway/import/read/csv.ts';
import { runImport } from '../../gateway/import/run.ts';
import type { ImportResult } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/**
 * Former members (legislators-historical.csv) imported after the trades, as an existing database gets them: the
 * trades stored without a member are attributed, with the keys an import in the documented order gives them.
 */
describe('legislators-historical on the real files', () => {
  let store: TestDatabases;
  const results: Record<string, ImportResult> = {};
  let unattributedBefore: Record<string, any>[] = [];
  const sql = (text: string, params: unknown[] = []) =>
    store.databases.live.sql.query<Record<string, any>>(text, params);
  const options = { now: SNAPSHOT_DAY };

  beforeAll(async () => {
    store = await createTestDatabases();
    const db = store.databases.live;
    results.members = await runImport(db, 'members', REAL_FILES.members, options);
    results.senate = await runImport(db, 'senate-trades', [REAL_FILES.senate], options);
    results.house = await runImport(db, 'house-trades', [REAL_FILES.house], options);
    unattributedBefore = await sql(
      `SELECT DISTINCT member_name, chamber FROM congressional_trades WHERE bioguide_id IS NULL ORDER BY 1`,
    );
    results.former = await runImport(db, 'legislators-historical', [REAL_FILES.formerMembers], options);
  });
  afterAll(() => store?.drop());

  it('keeps the former members of the disclosure era with D/R/I, chamber and state, and skips the rest', async () => {
    let rows = 0;
    let era = 0;
    let header: string[] | undefined;
    for await (const cells of csvRows(REAL_FILES.formerMembers)) {
      if (!header) {
        header = cells;
        continue;
      }
      rows += 1;
      const record = Object.fromEntries(header.map((column, index) => [column, cells[index]]));
      if (record.fec_ids || record.opensecrets_id) era += 1;
    }
    // Members in both files (back in office) are the current file's: written by neither insert nor update.
    const [{ n: former }] = (await sql(`SELECT count(*)::int AS n FROM members WHERE NOT in_office`)) as [
      { n: number },
    ];
    expect(results.former).toMatchObject({ read: rows, rejected: 0, inserted: former });
    expect(results.former!.skipped).toBe(rows - former);
    expect(era - former).toBeGreaterThan(0);
    const [perdue] = await sql(`SELECT * FROM members WHERE bioguide_id = 'P000612'`);
    expect(perdue).toMatchObject({
      full_name: 'David Perdue',
      party: 'R',
      chamber: 'senate',
      state: 'GA',
      in_office: false,
    });
    // A Libertarian is neither D nor R; a Whig (Henry Clay) is before the disclosure era and not imported.
    const [amash] = await sql(`SELECT party, chamber, district FROM members WHERE bioguide_id = 'A000367'`);
    expect(amash).toEqual({ party: 'I', chamber: 'house', district: 'MI03' });
    expect(await sql(`SELECT 1 FROM members WHERE last_name = 'Clay' AND first_name = 'Henry'`)).toHaveLength(0);
    const parties = await sql(`SELECT DISTINCT party FROM members ORDER BY 1`);
    expect(parties.map((row) => row.party)).toEqual(['D', 'I', 'R']);
  });

  it('never overwrites a member in office, and the current file stays the last word', async () => {
    const ids: string[] = [];
    let header: string[] | undefined;
    for await (const cells of csvRows(REAL_FILES.formerMembers)) {
      if (!header) header = cells;
      else ids.push(cells[header.indexOf('bioguide_id')]!);
    }
    const both = await sql(`SELECT bioguide_id FROM members WHERE in_office AND bioguide_id = ANY($1::text[])`, [ids]);
    expect(both.length).toBeGreaterThan(0);
    // The current file again changes nothing: the historical import left its members as it wrote them.
    expect(await runImport(store.databases.live, 'members', REAL_FILES.members, options)).toMatchObject({
      inserted: 0,
      updated: 0,
    });
    const [inOffice] = await sql(`SELECT count(*)::int AS n FROM members WHERE in_office`);
    expect(inOffice!.n).toBe(results.members!.read);
  });

  it('attributes every stored trade whose member is in either file, with the member’s party and chamber', async () => {
    expect(unattributedBefore.map((row) => row.member_name)).toEqual(
      expect.arrayContaining(['David Perdue', 'Kelly Loeffler', 'Pat Roberts', 'Mark Green']),
    );
    const [wrongParty] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades t JOIN members m USING (bioguide_id)
       WHERE t.party IS DISTINCT FROM m.party OR t.chamber IS NULL OR t.member_name <> m.full_name`,
    );
    expect(wrongParty!.n).toBe(0);
    // An unattributed trade whose first and last name are a member's of its chamber (and, in the House, state)
    // would be a member missed. Mark Green of Tennessee stays unattributed: the Mark Green on file is Wisconsin's.
    const missed = await sql(
      `SELECT DISTINCT t.member_name, m.bioguide_id FROM congressional_trades t JOIN members m
         ON m.chamber = t.chamber AND (t.chamber = 'senate' OR m.state = left(t.district, 2))
        AND markets_fold_name(m.last_name) = markets_fold_name(split_part(t.member_name, ' ', -1))
        AND markets_fold_name(m.name_folded) LIKE '%' || markets_fold_name(split_part(t.member_name, ' ', 1)) || '%'
       WHERE t.bioguide_id IS NULL`,
    );
    expect(missed).toEqual([]);
    const remaining = await sql(
      `SELECT member_name, chamber, count(*)::int AS trades FROM congressional_trades WHERE bioguide_id IS NULL
       GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(remaining.map((row) => row.member_name)).toEqual(expect.arrayContaining(['Thomas Carper', 'Mark Green']));
    expect(remaining.map((row) => row.member_name)).not.toContain('David Perdue');
    // The import lists exactly those names, each with a reason.
    const listed = [...results.former!.unmatched!].sort((a, b) => a.name.localeCompare(b.name));
    expect(listed.map(({ name, chamber, trades }) => ({ member_name: name, chamber, trades }))).toEqual(remaining);
    for (const entry of listed) expect(entry.reason.length).toBeGreaterThan(10);
    const [perdue] = await sql(
      `SELECT count(*)::int AS n, min(party) AS party, min(chamber) AS chamber FROM congressional_trades
       WHERE bioguide_id = 'P000612'`,
    );
    expect(perdue).toMatchObject({ party: 'R', chamber: 'senate' });
    expect(perdue!.n).toBe(results.senate!.unmatched!.find((entry) => entry.name === 'David Perdue')!.trades);
    // The rollups the aggregate routes read were refreshed with the attribution.
    const [rollup] = await sql(
      `SELECT coalesce(sum(trades), 0)::int AS n FROM market_member_days WHERE bioguide_id = 'P000612'`,
    );
    const [inForce] = await sql(
      `SELECT count(*)::int AS n FROM congressional_trades WHERE bioguide_id = 'P000612' AND superseded_by_id IS NULL`,
    );
    expect(rollup!.n).toBe(inForce!.n);
  });

  it('gives attributed trades the keys of a matched import: the trade files again change nothing', async () => {
    const senate = await runImport(store.databases.live, 'senate-trades', [REAL_FILES.senate], options);
    expect(senate).toMatchObject({ inserted: 0, updated: 0 });
    const house = await runImport(store.databases.live, 'house-trades', [REAL_FILES.house], options);
    expect(house).toMatchObject({ inserted: 0, updated: 0 });
    // Former members are matched at import time now: only the names in neither file stay unmatched.
    const unmatched = [...senate.unmatched!, ...house.unmatched!].map((entry) => entry.name).sort();
    expect(unmatched).toEqual(results.former!.unmatched!.map((entry) => entry.name).sort());
  });
});
