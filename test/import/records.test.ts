import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRecordsLoad } from '../../gateway/import/run.ts';
import type { RecordLoadOptions } from '../../gateway/import/records/load-records.ts';
import { loadFields } from '../../gateway/import/records/load-fields.ts';
import { RECORD_TYPES } from '../../subgraphs/verticals/record-type/catalog.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { REAL_FILES } from './real-data.ts';

/** The README's command for the Fortune 1000 (docs/data-sources.md "Records"). */
const FORTUNE_COLUMNS =
  'company=Company,revenue_usd=Revenue (M)*1000000,employees=Employees,industry=Industry,state=State';
const SP500_COLUMNS =
  'external_id=Symbol,company=Security,ticker=Symbol,industry=GICS Sector,headquarters=Headquarters Location';

describe('import -- records, on the real company lists and hand-made files', () => {
  let service: TestService;
  let key: string;
  const directory = mkdtempSync(join(tmpdir(), 'records-'));
  const file = (name: string, text: string) => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  };
  const load = (type: string, files: string[], options: Partial<RecordLoadOptions> = {}) =>
    runRecordsLoad(service.databases.live, type, files, { source: 'default', ...options });
  const sql = <Row = Record<string, any>>(text: string, params: unknown[] = []) =>
    service.databases.live.sql.query<Row>(text, params);
  const get = async (path: string) => {
    const response = await service.get(path, key);
    expect(response.status, response.text).toBe(200);
    return response.body as any;
  };

  beforeAll(async () => {
    service = await startTestService();
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  describe('the Fortune 1000', () => {
    let first: Awaited<ReturnType<typeof load>>;
    beforeAll(async () => {
      first = await load('companies', [REAL_FILES.fortune1000], { source: 'fortune', columns: FORTUNE_COLUMNS });
    });

    it('loads every company, and a live key finds Walmart in Arkansas with its real revenue and headcount', async () => {
      expect(first).toMatchObject({ read: 1000, inserted: 1000, updated: 0, skipped: 0, rejected: 0 });
      const page = await get('/api/v1/b2b/companies?state=AR&sort=-revenue&per_page=100');
      expect(page.data[0]).toMatchObject({
        company: 'Walmart',
        industry: 'General Merchandisers',
        revenue: '$500.3B',
        employees: 2_300_000,
        state: 'AR',
        decision_maker: null,
      });
      // Exact, and equal to what paging returns: the load refreshed the planner's statistics.
      expect(page.pagination).toMatchObject({ total: page.data.length, total_is_estimate: false });
      const [stored] = await sql(`SELECT industry, revenue_usd FROM companies WHERE name = 'Walmart'`);
      expect(stored).toEqual({ industry: 'general_merchandisers', revenue_usd: 500_343_000_000 });
    });

    it('changes nothing when the same file is loaded again', async () => {
      const again = await load('companies', [REAL_FILES.fortune1000], { source: 'fortune', columns: FORTUNE_COLUMNS });
      expect(again).toMatchObject({ read: 1000, inserted: 0, updated: 0, skipped: 1000, rejected: 0, deleted: 0 });
    });

    it('updates a changed row in place: the record keeps its API id', async () => {
      const [before] = await sql(`SELECT id FROM companies WHERE name = 'Walmart'`);
      const changed = readFileSync(REAL_FILES.fortune1000, 'utf8').replace('1,Walmart,500343.0', '1,Walmart,514405.0');
      const result = await load('companies', [file('fortune-2019.csv', changed)], {
        source: 'fortune',
        columns: FORTUNE_COLUMNS,
      });
      expect(result).toMatchObject({ inserted: 0, updated: 1, skipped: 999 });
      const walmart = await get(`/api/v1/b2b/companies/b2b_${before!.id}`);
      expect(walmart.data).toMatchObject({ company: 'Walmart', revenue: '$514.4B' });
    });

    it('is found by search and can be saved as a lead at once', async () => {
      const hits = await get('/api/v1/search?q=walmart');
      expect(hits.data.map((hit: any) => hit.title)).toContain('Walmart');
      const id = hits.data.find((hit: any) => hit.title === 'Walmart').id;
      const saved = await service.request('POST', '/api/v1/leads', { key, body: { record_id: id } });
      expect(saved.status, saved.text).toBe(201);
      expect(saved.body).toMatchObject({ data: { record_id: id, record_type: 'company' } });
    });

    it('is in a report job of the list it belongs to', async () => {
      const queued = await service.request('POST', '/api/v1/reports/generate', {
        key,
        body: { vertical: 'b2b', filters: { state: 'AR' }, format: 'json', fields: ['company', 'revenue'] },
      });
      expect(queued.status, queued.text).toBe(202);
      const id = queued.body.data.id;
      const deadline = Date.now() + 50_000;
      let job = queued.body.data;
      while (job.status !== 'completed' && job.status !== 'failed' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = (await get(`/api/v1/reports/${id}`)).data;
      }
      expect(job).toMatchObject({ status: 'completed', row_count: 8 });
      const file = await service.get(`/api/v1/reports/${id}/download`, key);
      expect(JSON.parse(file.text)).toContainEqual({ company: 'Walmart', revenue: '$514.4B' });
    });
  });

  it('loads the S&P 500 with tickers and headquarters, a foreign one without a state', async () => {
    const result = await load('companies', [REAL_FILES.sp500], { source: 'sp500', columns: SP500_COLUMNS });
    expect(result).toMatchObject({ read: 503, inserted: 503, rejected: 0 });
    // Stored in the SEC dash form that market data uses, and found by either form.
    const [stored] = await sql(`SELECT ticker FROM companies WHERE source = 'sp500' AND external_id = 'BRK.B'`);
    expect(stored).toEqual({ ticker: 'BRK-B' });
    for (const form of ['BRK.B', 'brk-b']) {
      const berkshire = await get(`/api/v1/b2b/companies?ticker=${form}`);
      expect(berkshire.data.map((company: any) => company.company)).toEqual(['Berkshire Hathaway']);
    }
    const [mmm] = await sql(
      `SELECT city, state, ticker, industry_name FROM companies WHERE source = 'sp500' AND external_id = 'MMM'`,
    );
    expect(mmm).toEqual({ city: 'Saint Paul', state: 'MN', ticker: 'MMM', industry_name: 'Industrials' });
    const [abroad] = await sql(`SELECT city, state FROM companies WHERE source = 'sp500' AND external_id = 'ACN'`);
    expect(abroad).toEqual({ city: null, state: null });
    // The file's "Founded" holds text such as "2013 (1888)": mapped, those rows are rejected with the reason.
    const rejects = join(directory, 'sp500.rejects.jsonl');
    const founded = await load('companies', [REAL_FILES.sp500], {
      source: 'sp500',
      columns: `${SP500_COLUMNS},founded_year=Founded`,
      rejects,
    });
    expect(founded.rejected).toBeGreaterThan(0);
    expect(founded).toMatchObject({ inserted: 0, rejects });
    expect(founded.updated + founded.rejected).toBe(503);
    const abbvie = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((entry) => entry.record.Symbol === 'ABBV');
    expect(abbvie).toMatchObject({ line: 5, reason: 'founded_year: "2013 (1888)" is not a number' });
  });

  it('rejects bad rows line by line into the rejects file and loads the rest whole', async () => {
    const path = file(
      'bad.csv',
      [
        'id,name,state,score,email',
        'a1,Good One,ca,90,ana@example.com',
        'a2,Bad State,ZZ,50,',
        'a3,,TX,50,',
        'a4,Score Too High,NY,101,not-an-email',
        'a1,Repeated Key,WA,10,',
        'a5,Good Two,Oregon,,',
      ].join('\n'),
    );
    const columns = 'external_id=id,company=name,ai_score=score,email=email';
    const result = await load('companies', [path], { source: 'bad', columns });
    expect(result).toMatchObject({ read: 6, inserted: 2, rejected: 4, rejects: `${path}.rejects.jsonl` });
    const rejects = readFileSync(`${path}.rejects.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejects.map(({ line, reason }) => ({ line, reason }))).toEqual([
      { line: 3, reason: 'state: must be a US state code such as CA, or its name' },
      { line: 4, reason: 'company: is required' },
      { line: 5, reason: 'ai_score: must be from 0 to 100; email: must be an e-mail address such as ana@example.com' },
      { line: 6, reason: 'external_id: repeats line 2 of bad.csv' },
    ]);
    const stored = await sql(
      `SELECT external_id, name, state, ai_score FROM companies WHERE source = 'bad' ORDER BY 1`,
    );
    expect(stored).toEqual([
      { external_id: 'a1', name: 'Good One', state: 'CA', ai_score: 90 },
      { external_id: 'a5', name: 'Good Two', state: 'OR', ai_score: 0 },
    ]);
  });

  it('rejects a NUL character and an id past the integer range as rows, not as a failed load', async () => {
    const path = file(
      'hostile.jsonl',
      [
        { external_id: 'n1', company: 'Nul\u0000Corp' },
        { external_id: 'n2', company: 'Big Corp', employees: 5_000_000_000 },
        { external_id: 'n3', company: 'Good Corp' },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const result = await load('companies', [path], { source: 'hostile' });
    expect(result).toMatchObject({ read: 3, inserted: 1, rejected: 2 });
    const contacts = file(
      'far-id.csv',
      'external_id,company_id,first_name,last_name,title,seniority,email\nf1,b2b_99999999999,A,B,C,staff,a@b.example\n',
    );
    const far = await load('contacts', [contacts], { source: 'hostile' });
    expect(far).toMatchObject({ read: 1, rejected: 1, inserted: 0 });
    expect(readFileSync(`${contacts}.rejects.jsonl`, 'utf8')).toContain('company_id: must be an id like b2b_123');
  });

  it('reads object member names in a file as text, never as Object.prototype’s members', async () => {
    const names = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
    const company = file('member-names-company.jsonl', '{"external_id":"c1","company":"Acme Tools"}\n');
    expect(await load('companies', [company], { source: 'members' })).toMatchObject({ inserted: 1 });
    const contacts = file(
      'member-names.csv',
      [
        'external_id,company_external_id,first_name,last_name,title,seniority,email,email_verified',
        ...names.map((name, i) => `m${i},c1,Ann,Lee,Owner,staff,m${i}@example.com,${name}`),
      ].join('\n'),
    );
    const result = await load('contacts', [contacts], { source: 'members' });
    expect(result).toMatchObject({ read: names.length, inserted: 0, rejected: names.length });
    const reasons = readFileSync(`${contacts}.rejects.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).reason);
    expect(reasons).toEqual(names.map((name) => `email_verified: "${name}" is not true or false`));
    // JSON lines: a key `--columns` names that a line lacks is empty, not the member of every object.
    const companies = file('member-names.jsonl', '{"external_id":"j1","name":"Acme"}\n');
    for (const name of names) {
      const loaded = await load('companies', [companies], { source: 'member-keys', columns: `company=${name}` });
      expect(loaded, name).toMatchObject({ read: 1, inserted: 0, rejected: 1 });
      expect(readFileSync(`${companies}.rejects.jsonl`, 'utf8')).toContain('company: is required');
    }
    expect(await sql(`SELECT 1 FROM companies WHERE source = 'member-keys'`)).toEqual([]);
  });

  it('refuses a file without a required column before reading a row', async () => {
    const path = file('no-name.csv', 'state\nCA\n');
    await expect(load('companies', [path], { source: 'none' })).rejects.toThrow(/no column for company/);
    expect(await sql(`SELECT 1 FROM companies WHERE source = 'none'`)).toEqual([]);
  });

  it('links contacts to their companies by external id and shows the most senior as the decision maker', async () => {
    const companies = file('crm-companies.jsonl', '{"external_id":"c1","company":"Acme Tools","state":"WA"}\n');
    const contacts = file(
      'crm-contacts.csv',
      [
        'external_id,company_external_id,first_name,last_name,title,seniority,email,department',
        'p1,c1,Ann,Lee,Sales Manager,manager,ann@acme.test,Sales',
        'p2,c1,Bo,Park,Chief Executive Officer,c_level,bo@acme.test,Executive',
        'p3,c9,Cy,Ray,VP Sales,vp,cy@acme.test,Sales',
      ].join('\n'),
    );
    expect(await load('companies', [companies], { source: 'crm' })).toMatchObject({ inserted: 1 });
    const result = await load('contacts', [contacts], { source: 'crm' });
    expect(result).toMatchObject({ read: 3, inserted: 2, rejected: 1 });
    expect(readFileSync(`${contacts}.rejects.jsonl`, 'utf8')).toContain(
      'company_external_id: no company with this external_id in source crm',
    );
    const [acme] = await sql(`SELECT id FROM companies WHERE source = 'crm'`);
    const company = await get(`/api/v1/b2b/companies/b2b_${acme!.id}`);
    expect(company.data).toMatchObject({
      decision_maker: 'Bo Park',
      title: 'Chief Executive Officer',
      email: 'bo@acme.test',
    });
    const listed = await get(`/api/v1/b2b/contacts?company_id=b2b_${acme!.id}`);
    expect(listed.data.map((contact: any) => contact.department).sort()).toEqual(['executive', 'sales']);
  });

  it('keeps owners’ portfolios and absentee flags right as properties load', async () => {
    const owners = file(
      'owners.csv',
      [
        'external_id,name,owner_type,mailing_address,mailing_city,mailing_state,mailing_zip',
        'o1,Rivera Family Trust,trust,1 Main St,Austin,TX,78701',
      ].join('\n'),
    );
    const properties = file(
      'properties.csv',
      [
        'external_id,owner_external_id,address,city,state,zip,property_type,estimated_value,mortgage_balance',
        'h1,o1,5 Oak Ave,Austin,TX,78702,single_family,400000,100000',
        'h2,o1,9 Bay Rd,Miami,FL,33101,condo,250000,250000',
      ].join('\n'),
    );
    await load('owners', [owners], { source: 'county' });
    expect(await load('properties', [properties], { source: 'county' })).toMatchObject({ inserted: 2, rejected: 0 });
    const [owner] = await sql(
      `SELECT properties_count, portfolio_value, absentee FROM owners WHERE source = 'county' AND external_id = 'o1'`,
    );
    expect(owner).toEqual({ properties_count: 2, portfolio_value: 650_000, absentee: true });
    const homes = await sql(
      `SELECT external_id, equity_pct, absentee_owner FROM properties WHERE source = 'county' ORDER BY 1`,
    );
    expect(homes).toEqual([
      { external_id: 'h1', equity_pct: 75, absentee_owner: false },
      { external_id: 'h2', equity_pct: 0, absentee_owner: true },
    ]);
  });

  it('with --dry-run reports what would change and writes nothing', async () => {
    const path = file('dry.csv', 'external_id,company,state\nd1,Dry Run Co,NV\n');
    const result = await load('companies', [path], { source: 'dry', dryRun: true });
    expect(result).toMatchObject({ dry_run: true, inserted: 1 });
    expect(await sql(`SELECT 1 FROM companies WHERE source = 'dry'`)).toEqual([]);
  });

  it('with --delete-missing removes the source’s records absent from the file, but keeps those of rejected rows', async () => {
    const before = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM companies WHERE source = 'bad'`);
    expect(before[0]!.n).toBe(2);
    // a1 comes back with a bad state (rejected, kept); a5 is gone from the file (deleted).
    const path = file('bad-again.csv', 'id,name,state\na1,Good One,ZZ\na6,Good Three,ME\n');
    const result = await load('companies', [path], {
      source: 'bad',
      columns: 'external_id=id,company=name',
      deleteMissing: true,
    });
    expect(result).toMatchObject({ inserted: 1, rejected: 1, deleted: 1 });
    const left = await sql(`SELECT external_id, state FROM companies WHERE source = 'bad' ORDER BY 1`);
    expect(left).toEqual([
      { external_id: 'a1', state: 'CA' },
      { external_id: 'a6', state: 'ME' },
    ]);
    expect(await sql(`SELECT count(*)::int AS n FROM companies WHERE source = 'fortune'`)).toEqual([{ n: 1000 }]);
  });

  it('writes to columns the tables have: each field’s column is its snake_case name', async () => {
    for (const type of RECORD_TYPES) {
      const columns = await sql<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = $1`,
        [type.table],
      );
      const names = columns.map((column) => column.column_name);
      for (const field of loadFields(type)) expect(names, `${type.name}.${field.name}`).toContain(field.column);
    }
  });

  it('writes no rejects file when nothing is rejected', () => {
    expect(existsSync(`${REAL_FILES.fortune1000}.rejects.jsonl`)).toBe(false);
  });
});
