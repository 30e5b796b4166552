import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../prisma/seed/copy.ts';
import { createContext } from '../prisma/seed/context.ts';
import { companyRows } from '../prisma/seed/generate/company.ts';
import { SEED_TABLES, AlreadySeededError, seedDatabase, type SeedSummary } from '../prisma/seed/index.ts';
import { planTables, tableCsv } from '../prisma/seed/plan.ts';
import type { Database } from '../subgraphs/platform/database.ts';
import { createTestDatabases, type TestDatabases } from './support/databases.ts';

const SCALE = 300;

function sha256(chunks: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/** Every table's CSV hashed, generated without a database. */
async function tableHashes(seed: number): Promise<Record<string, string>> {
  const ctx = createContext({ scale: SCALE, seed, anchor: new Date('2026-01-15T00:00:00Z') });
  return Object.fromEntries((await planTables(ctx)).map((load) => [load.table, sha256(tableCsv(load))]));
}

describe('CSV for COPY', () => {
  it('quotes what CSV needs quoted and writes NULL as an empty unquoted field', () => {
    expect(csvField(null)).toBe('');
    expect(csvField('')).toBe('""');
    expect(csvField('Salesforce, Inc.')).toBe('"Salesforce, Inc."');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("McDonald's")).toBe("McDonald's");
    expect(csvField(true)).toBe('t');
    expect(csvField(['Real Estate', 'Mergers & Acquisitions'])).toBe('"{""Real Estate"",""Mergers & Acquisitions""}"');
    expect(csvField([])).toBe('"{}"');
    expect(csvField(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('generation without a database', () => {
  it('is deterministic: the same seed and scale give byte-identical CSV for every table', async () => {
    const first = await tableHashes(7);
    expect(await tableHashes(7)).toEqual(first);
    expect((await tableHashes(8)).companies).not.toBe(first.companies);
  });

  it('at scale 5000 has software companies in CA scoring 80 or more', () => {
    const ctx = createContext({ scale: 5000 });
    let matches = 0;
    for (const row of companyRows(ctx))
      if (row[2] === 'software' && row[6] === 'CA' && Number(row[11]) >= 80) matches++;
    expect(matches).toBeGreaterThan(0);
  });
});

describe(`seeded database (scale ${SCALE})`, () => {
  let test: TestDatabases;
  let db: Database;
  let summary: SeedSummary;
  const one = async <T>(sql: string): Promise<T> => (await db.sql.query<T>(sql))[0] as T;

  beforeAll(async () => {
    test = await createTestDatabases();
    db = test.databases.sandbox;
    summary = await seedDatabase(db, { scale: SCALE });
  });
  afterAll(() => test?.drop());

  it('holds the row counts the summary reports', async () => {
    for (const table of SEED_TABLES) {
      const { n } = await one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      expect({ table, n }).toEqual({ table, n: summary.rows[table] });
    }
    expect(summary.rows.companies).toBe(SCALE);
    expect(summary.rows.properties).toBe(SCALE);
    expect(summary.rows.attorneys).toBe(SCALE);
  });

  it('refuses to seed a database that is already seeded', async () => {
    await expect(seedDatabase(db, { scale: SCALE })).rejects.toBeInstanceOf(AlreadySeededError);
  });

  it("keeps each owner's properties_count, portfolio_value and absentee flag equal to its properties", async () => {
    const { mismatches, owners } = await one<{ mismatches: number; owners: number }>(`
      SELECT count(*) FILTER (WHERE o.properties_count <> p.n OR o.portfolio_value <> p.total
                              OR o.absentee <> p.away)::int AS mismatches, count(*)::int AS owners
      FROM owners o
      JOIN (SELECT owner_id, count(*) AS n, sum(estimated_value) AS total, bool_or(absentee_owner) AS away
            FROM properties GROUP BY owner_id) p ON p.owner_id = o.id`);
    expect(owners).toBe(summary.rows.owners);
    expect(mismatches).toBe(0);
    const { wrong } = await one<{ wrong: number }>(`
      SELECT count(*)::int AS wrong FROM properties p JOIN owners o ON o.id = p.owner_id
      WHERE p.absentee_owner <> (p.state <> o.mailing_state)
         OR p.equity_pct <> round(((p.estimated_value - p.mortgage_balance) / p.estimated_value * 100)::numeric, 1)`);
    expect(wrong).toBe(0);
  });

  it('sizes each firm by its attorneys and gives every firm of two or more a partner', async () => {
    const { wrongSize, withoutPartner, solo } = await one<{ wrongSize: number; withoutPartner: number; solo: number }>(`
      SELECT count(*) FILTER (WHERE f.size <> coalesce(a.n, 0))::int AS "wrongSize",
             count(*) FILTER (WHERE a.n >= 2 AND NOT a.partner)::int AS "withoutPartner",
             (SELECT count(*) FROM attorneys WHERE firm_id IS NULL)::int AS solo
      FROM firms f
      LEFT JOIN (SELECT firm_id, count(*) AS n, bool_or(is_partner) AS partner FROM attorneys GROUP BY firm_id) a
        ON a.firm_id = f.id`);
    expect(wrongSize).toBe(0);
    expect(withoutPartner).toBe(0);
    expect(solo).toBeGreaterThan(0);
  });

  it("shows as each company's decision maker one of its own contacts", async () => {
    const { unmatched } = await one<{ unmatched: number }>(`
      SELECT count(*)::int AS unmatched FROM companies c
      WHERE NOT EXISTS (SELECT 1 FROM contacts k
                        WHERE k.id = c.decision_maker_id AND k.company_id = c.id
                          AND k.first_name || ' ' || k.last_name = c.decision_maker
                          AND k.title = c.decision_maker_title AND k.email = c.decision_maker_email)`);
    expect(unmatched).toBe(0);
  });

  it('links every signal and trade ticker to a company profile, and company signals to a company', async () => {
    const counts = await one<Record<string, number>>(`
      SELECT (SELECT count(*) FROM signals s WHERE NOT EXISTS
                (SELECT 1 FROM company_profiles p WHERE p.ticker = s.ticker))::int AS "signalsWithoutProfile",
             (SELECT count(*) FROM signals s WHERE s.signal_type <> 'macro' AND NOT EXISTS
                (SELECT 1 FROM companies c WHERE c.ticker = s.ticker))::int AS "signalsWithoutCompany",
             (SELECT count(*) FROM congressional_trades t WHERE NOT EXISTS
                (SELECT 1 FROM company_profiles p WHERE p.ticker = t.ticker)
                OR NOT EXISTS (SELECT 1 FROM companies c WHERE c.ticker = t.ticker))::int AS "tradesUnlinked",
             (SELECT count(*) FROM signals WHERE signal_type = 'macro' AND ticker NOT IN ('SPY', 'TLT'))::int AS "macroElsewhere"`);
    expect(counts).toEqual({
      signalsWithoutProfile: 0,
      signalsWithoutCompany: 0,
      tradesUnlinked: 0,
      macroElsewhere: 0,
    });
  });

  it('flags a trade late exactly when it was disclosed more than 45 days after the trade', async () => {
    const { wrong, late } = await one<{ wrong: number; late: number }>(`
      SELECT count(*) FILTER (WHERE late <> (disclosure_lag_days > 45)
                              OR disclosure_lag_days <> disclosure_date - trade_date)::int AS wrong,
             count(*) FILTER (WHERE late)::int AS late
      FROM congressional_trades`);
    expect(wrong).toBe(0);
    expect(late).toBeGreaterThan(0);
  });

  it('writes a briefing for each of the last 30 days that names its top signal', async () => {
    const rows = await db.sql.query<{ summary: string; ai_summary: string | null }>(`
      SELECT b.summary, s.ai_summary FROM briefings b
      LEFT JOIN LATERAL (SELECT ai_summary FROM signals WHERE created_at::date = b.date
                         ORDER BY materiality_score DESC, source_key LIMIT 1) s ON true`);
    expect(rows).toHaveLength(30);
    for (const row of rows) if (row.ai_summary) expect(row.summary).toContain(row.ai_summary);
  });

  it('moves each id sequence past the loaded ids', async () => {
    for (const table of ['companies', 'contacts', 'owners', 'properties', 'firms', 'attorneys']) {
      const { behind } = await one<{ behind: boolean }>(
        `SELECT (SELECT last_value FROM ${table}_id_seq) < (SELECT max(id) FROM ${table}) AS behind`,
      );
      expect({ table, behind }).toEqual({ table, behind: false });
    }
  });
});
