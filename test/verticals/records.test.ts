import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { readsOf } from '../support/statements.ts';

let service: TestService;
let sandboxKey: string;
let liveKey: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300, liveScale: 300 });
  ({ key: sandboxKey } = await service.createKey({ mode: 'sandbox' }));
  ({ key: liveKey } = await service.createKey({ mode: 'live' }));
});
afterAll(() => service?.stop());

type FieldCheck =
  | RegExp
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'string[]'
  | 'date'
  | 'timestamp'
  | 'partners'
  | readonly string[];

interface RecordCase {
  path: string;
  vertical: string;
  table: string;
  prefix: string;
  fields: Record<string, FieldCheck>;
  nullable?: string[];
  /** Query string → the SQL condition it must select exactly. */
  filters: [string, string][];
  /** REST sort name → SQL column. */
  sorts: [string, string][];
  defaultOrder: string;
  /** Query string → the parameter a 400 must name. */
  invalid: [string, string][];
}

const CASES: RecordCase[] = [
  {
    path: '/api/v1/b2b/contacts',
    vertical: 'b2b',
    table: 'contacts',
    prefix: 'contact',
    fields: {
      id: /^contact_\d+$/,
      company_id: /^b2b_\d+$/,
      name: 'string',
      title: 'string',
      seniority: ['c_level', 'vp', 'director', 'manager', 'staff'],
      department: /^[a-z_]+$/,
      email: /^[^@\s]+@[^@\s]+$/,
      email_verified: 'boolean',
      phone: 'string',
      linkedin_url: /^https:\/\//,
    },
    filters: [
      ['company_id=b2b_7', 'company_id = 7'],
      ['seniority=vp', `seniority = 'vp'`],
      ['department=sales', `department = 'sales'`],
      ['email_verified=false', 'NOT email_verified'],
      [
        'seniority=director&department=engineering&email_verified=true',
        `seniority = 'director' AND department = 'engineering' AND email_verified`,
      ],
    ],
    sorts: [
      ['name', 'last_name'],
      ['department', 'department'],
      ['company_id', 'company_id'],
      ['title', 'title'],
    ],
    defaultOrder: 'id ASC',
    invalid: [
      ['company_id=7', 'company_id'],
      ['company_id=prop_7', 'company_id'],
      ['seniority=ceo', 'seniority'],
      ['email_verified=yes', 'email_verified'],
      ['department=Sales!', 'department'],
    ],
  },
  {
    path: '/api/v1/realestate/properties',
    vertical: 'realestate',
    table: 'properties',
    prefix: 'prop',
    fields: {
      id: /^prop_\d+$/,
      address: 'string',
      city: 'string',
      state: /^[A-Z]{2}$/,
      zip: /^\d{5}$/,
      county: 'string',
      property_type: ['single_family', 'condo', 'townhouse', 'multi_family', 'land', 'commercial'],
      bedrooms: 'integer',
      bathrooms: 'number',
      sqft: 'integer',
      year_built: 'integer',
      estimated_value: 'number',
      mortgage_balance: 'number',
      equity_pct: 'number',
      last_sale_date: 'date',
      last_sale_price: 'number',
      owner_id: /^owner_\d+$/,
      owner_name: 'string',
      absentee_owner: 'boolean',
    },
    nullable: ['bedrooms', 'bathrooms', 'sqft', 'year_built', 'last_sale_date', 'last_sale_price'],
    filters: [
      ['min_equity=50&state=CA', `equity_pct >= 50 AND state = 'CA'`],
      ['min_equity=80', 'equity_pct >= 80'],
      ['max_equity=20.5', 'equity_pct <= 20.5'],
      ['state=tx', `state = 'TX'`],
      ['property_type=condo', `property_type = 'condo'`],
      ['min_value=500000&max_value=900000', 'estimated_value BETWEEN 500000 AND 900000'],
      ['absentee=true', 'absentee_owner'],
      ['owner_id=owner_3', 'owner_id = 3'],
      ['city=los%20angeles', `lower(city) = 'los angeles'`],
    ],
    sorts: [
      ['equity_pct', 'equity_pct'],
      ['estimated_value', 'estimated_value'],
      ['last_sale_date', 'last_sale_date'],
      ['year_built', 'year_built'],
      ['sqft', 'sqft'],
    ],
    defaultOrder: 'equity_pct DESC, id DESC',
    invalid: [
      ['min_equity=-1', 'min_equity'],
      ['min_equity=101', 'min_equity'],
      ['min_equity=half', 'min_equity'],
      ['state=XX', 'state'],
      ['min_equity=60&max_equity=40', 'max_equity'],
      ['min_value=-10', 'min_value'],
      ['zip=123', 'zip'],
      ['property_type=castle', 'property_type'],
    ],
  },
  {
    path: '/api/v1/realestate/owners',
    vertical: 'realestate',
    table: 'owners',
    prefix: 'owner',
    fields: {
      id: /^owner_\d+$/,
      name: 'string',
      owner_type: ['individual', 'llc', 'trust', 'corporation'],
      mailing_address: 'string',
      mailing_city: 'string',
      mailing_state: /^[A-Z]{2}$/,
      mailing_zip: /^\d{5}$/,
      phone: 'string',
      email: 'string',
      properties_count: 'integer',
      portfolio_value: 'number',
      absentee: 'boolean',
    },
    filters: [
      ['owner_type=llc', `owner_type = 'llc'`],
      ['min_properties=3', 'properties_count >= 3'],
      ['absentee=true', 'absentee'],
      ['absentee=false&owner_type=individual', `NOT absentee AND owner_type = 'individual'`],
      ['state=NY', `mailing_state = 'NY'`],
      ['min_portfolio_value=2000000', 'portfolio_value >= 2000000'],
    ],
    sorts: [
      ['properties_count', 'properties_count'],
      ['portfolio_value', 'portfolio_value'],
      ['name', 'name'],
    ],
    defaultOrder: 'properties_count DESC, id DESC',
    invalid: [
      ['min_properties=-2', 'min_properties'],
      ['min_properties=0', 'min_properties'],
      ['min_properties=1.5', 'min_properties'],
      ['owner_type=bank', 'owner_type'],
      ['absentee=1', 'absentee'],
    ],
  },
  {
    path: '/api/v1/legal/attorneys',
    vertical: 'legal',
    table: 'attorneys',
    prefix: 'atty',
    fields: {
      id: /^atty_\d+$/,
      name: 'string',
      firm_id: /^firm_\d+$/,
      firm_name: 'string',
      practice_areas: 'string[]',
      state: /^[A-Z]{2}$/,
      city: 'string',
      bar_number: 'string',
      bar_status: ['active', 'inactive', 'suspended'],
      bar_verified: 'boolean',
      verified_at: 'timestamp',
      admitted_year: 'integer',
      email: 'string',
      phone: 'string',
    },
    nullable: ['firm_id', 'firm_name', 'verified_at'],
    filters: [
      ['practice_area=Personal%20Injury&verified=true', `'Personal Injury' = ANY(practice_areas) AND bar_verified`],
      ['practice_area=personal%20injury', `'Personal Injury' = ANY(practice_areas)`],
      ['bar_status=suspended', `bar_status = 'suspended'`],
      ['verified=false', 'NOT bar_verified'],
      ['city=Chicago', `city = 'Chicago'`],
      ['firm_id=firm_2', 'firm_id = 2'],
    ],
    sorts: [
      ['name', 'last_name'],
      ['admitted_year', 'admitted_year'],
      ['verified_at', 'verified_at'],
      ['state', 'state'],
    ],
    defaultOrder: 'last_name ASC, id ASC',
    invalid: [
      ['bar_status=disbarred', 'bar_status'],
      ['verified=maybe', 'verified'],
      ['state=California', 'state'],
      ['firm_id=2', 'firm_id'],
      ['practice_area=x', 'practice_area'],
    ],
  },
  {
    path: '/api/v1/legal/firms',
    vertical: 'legal',
    table: 'firms',
    prefix: 'firm',
    fields: {
      id: /^firm_\d+$/,
      name: 'string',
      hq_city: 'string',
      hq_state: /^[A-Z]{2}$/,
      size: 'integer',
      practice_areas: 'string[]',
      partners: 'partners',
      website: /^https?:\/\//,
      founded_year: 'integer',
    },
    filters: [
      ['practice_area=Family%20Law', `'Family Law' = ANY(practice_areas)`],
      ['state=CA', `hq_state = 'CA'`],
      ['min_size=20', 'size >= 20'],
      ['min_size=5&max_size=30', 'size BETWEEN 5 AND 30'],
    ],
    sorts: [
      ['size', 'size'],
      ['name', 'name'],
      ['founded_year', 'founded_year'],
    ],
    defaultOrder: 'size DESC, id DESC',
    invalid: [
      ['min_size=-1', 'min_size'],
      ['min_size=big', 'min_size'],
      ['min_size=30&max_size=5', 'max_size'],
    ],
  },
];

function checkField(name: string, value: unknown, check: FieldCheck, nullable: boolean) {
  if (value === null && nullable) return;
  const where = `${name}=${JSON.stringify(value)}`;
  if (check instanceof RegExp) expect(typeof value === 'string' && check.test(value), where).toBe(true);
  else if (Array.isArray(check)) expect(check, where).toContain(value);
  else if (check === 'integer') expect(Number.isInteger(value), where).toBe(true);
  else if (check === 'number') expect(typeof value, where).toBe('number');
  else if (check === 'string[]')
    expect(Array.isArray(value) && value.every((item) => typeof item === 'string'), where).toBe(true);
  else if (check === 'date') expect(value, where).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  else if (check === 'timestamp') expect(new Date(value as string).toISOString(), where).toBe(value);
  else if (check === 'partners') {
    for (const partner of value as { id: string; name: string }[]) {
      expect(Object.keys(partner)).toEqual(['id', 'name']);
      expect(partner.id).toMatch(/^atty_\d+$/);
    }
  } else expect(typeof value, where).toBe(check);
}

const count = async (sql: string, mode: 'sandbox' | 'live' = 'sandbox') =>
  (await service.databases[mode].sql.query<{ n: number }>(sql))[0]!.n;

describe.each(CASES)('GET $path', (record) => {
  it('answers in the list envelope with records of the documented fields and types', async () => {
    const response = await service.get(`${record.path}?per_page=100`, sandboxKey);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'pagination', 'success', 'vertical']);
    expect(response.body).toMatchObject({ success: true, vertical: record.vertical });
    const total = await count(`SELECT count(*)::int AS n FROM ${record.table}`);
    expect(response.body.pagination).toEqual({
      page: 1,
      per_page: 100,
      total,
      total_pages: Math.ceil(total / 100),
      total_is_estimate: false,
    });
    expect(response.body.data.length).toBe(Math.min(100, total));
    for (const row of response.body.data) {
      expect(Object.keys(row)).toEqual(Object.keys(record.fields));
      for (const [name, check] of Object.entries(record.fields))
        checkField(name, row[name], check, record.nullable?.includes(name) ?? false);
    }
    const ids = await service.databases.sandbox.sql.query<{ id: number }>(
      `SELECT id FROM ${record.table} ORDER BY ${record.defaultOrder} LIMIT 100`,
    );
    expect(response.body.data.map((row: { id: string }) => row.id)).toEqual(
      ids.map(({ id }) => `${record.prefix}_${id}`),
    );
  });

  it.each(record.filters)('filters by %s exactly as the database selects %s', async (query, condition) => {
    const response = await service.get(`${record.path}?${query}&per_page=100`, sandboxKey);
    expect(response.status).toBe(200);
    const expected = await service.databases.sandbox.sql.query<{ id: number }>(
      `SELECT id FROM ${record.table} WHERE ${condition} ORDER BY ${record.defaultOrder}`,
    );
    const all = await count(`SELECT count(*)::int AS n FROM ${record.table}`);
    expect(expected.length, 'the fixture must make this filter select some but not all records').toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all);
    expect(response.body.pagination.total).toBe(expected.length);
    expect(response.body.data.map((row: { id: string }) => row.id)).toEqual(
      expected.slice(0, 100).map(({ id }) => `${record.prefix}_${id}`),
    );
  });

  it.each(record.sorts)('sorts by %s both ways (SQL column %s)', async (field, column) => {
    for (const [prefix, direction] of [
      ['', 'ASC'],
      ['-', 'DESC'],
    ] as const) {
      const response = await service.get(`${record.path}?sort=${prefix}${field}&per_page=50&page=2`, sandboxKey);
      expect(response.status).toBe(200);
      const expected = await service.databases.sandbox.sql.query<{ id: number }>(
        `SELECT id FROM ${record.table} ORDER BY ${column} ${direction}, id ${direction} LIMIT 50 OFFSET 50`,
      );
      expect(response.body.data.map((row: { id: string }) => row.id)).toEqual(
        expected.map(({ id }) => `${record.prefix}_${id}`),
      );
    }
  });

  it('pages to the last page, past the end, and up to 100 per page', async () => {
    const total = await count(`SELECT count(*)::int AS n FROM ${record.table}`);
    const perPage = 7;
    const lastPage = Math.ceil(total / perPage);
    const last = await service.get(`${record.path}?per_page=${perPage}&page=${lastPage}&sort=id`, sandboxKey);
    expect(last.body.data.length).toBe(total - (lastPage - 1) * perPage);
    expect(last.body.pagination).toEqual({
      page: lastPage,
      per_page: perPage,
      total,
      total_pages: lastPage,
      total_is_estimate: false,
    });
    const past = await service.get(`${record.path}?per_page=${perPage}&page=${lastPage + 1}`, sandboxKey);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toMatchObject({ page: lastPage + 1, total, total_pages: lastPage });
    const hundred = await service.get(`${record.path}?per_page=100&sort=id`, sandboxKey);
    expect(hundred.body.data.length).toBe(Math.min(100, total));
    // Pages neither overlap nor skip.
    const first = await service.get(`${record.path}?per_page=50&sort=id`, sandboxKey);
    const second = await service.get(`${record.path}?per_page=50&page=2&sort=id`, sandboxKey);
    expect([...first.body.data, ...second.body.data].map((row: { id: string }) => row.id)).toEqual(
      hundred.body.data.map((row: { id: string }) => row.id),
    );
  });

  it.each([
    ...record.invalid,
    ['per_page=101', 'per_page'],
    ['per_page=0', 'per_page'],
    ['per_page=-5', 'per_page'],
    ['page=0', 'page'],
    ['page=two', 'page'],
    ['page=1.5', 'page'],
    ['sort=colour', 'sort'],
    ['sort=-', 'sort'],
    ['colour=blue', 'colour'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const response = await service.get(`${record.path}?${query}`, sandboxKey);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(typeof response.body.message).toBe('string');
    expect(Object.keys(response.body.details)).toEqual([parameter]);
  });

  it('reads one record by id, 404 for an unknown one, 400 for a malformed one', async () => {
    const list = await service.get(`${record.path}?per_page=1`, sandboxKey);
    const [first] = list.body.data;
    const one = await service.get(`${record.path}/${first.id}`, sandboxKey);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ success: true, vertical: record.vertical, data: first });
    for (const unknown of [`${record.prefix}_99999999`, `${record.prefix === 'firm' ? 'atty' : 'firm'}_1`]) {
      const missing = await service.get(`${record.path}/${unknown}`, sandboxKey);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'not_found', message: expect.any(String) });
    }
    const malformed = await service.get(`${record.path}/12abc`, sandboxKey);
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toHaveProperty('id');
  });

  it('reads the live database with a live key and the sandbox with a sandbox key', async () => {
    const live = await service.get(`${record.path}?per_page=5&sort=id`, liveKey);
    expect(live.status).toBe(200);
    expect(live.body.pagination.total).toBe(await count(`SELECT count(*)::int AS n FROM ${record.table}`, 'live'));
    const [row] = await service.databases.live.sql.query<{ id: number }>(
      `SELECT id FROM ${record.table} ORDER BY id LIMIT 1`,
    );
    expect(live.body.data[0].id).toBe(`${record.prefix}_${row!.id}`);
    expect((await service.get(record.path)).status).toBe(200);
    expect((await service.request('GET', record.path)).status).toBe(401);
  });
});

describe('city filters', () => {
  // Prisma sends a case-insensitive equals as ILIKE, where % and _ are wildcards; they must stay literal.
  it.each([
    ['/api/v1/realestate/properties', 'city=%25'],
    ['/api/v1/realestate/properties', 'city=_%25'],
    ['/api/v1/legal/attorneys', 'city=%25'],
    ['/api/v1/legal/firms', 'city=%25'],
  ])('%s?%s matches the city literally, not every city', async (path, query) => {
    const response = await service.get(`${path}?${query}`, sandboxKey);
    expect(response.status).toBe(200);
    expect(response.body.pagination.total).toBe(0);
    expect(response.body.data).toEqual([]);
  });

  it('still matches a real city whatever its case', async () => {
    const [row] = await service.databases.sandbox.sql.query<{ city: string; n: number }>(
      'SELECT city, count(*)::int AS n FROM properties GROUP BY city ORDER BY n DESC LIMIT 1',
    );
    const response = await service.get(
      `/api/v1/realestate/properties?city=${encodeURIComponent(row!.city.toUpperCase())}`,
      sandboxKey,
    );
    expect(response.body.pagination.total).toBe(row!.n);
  });
});

describe('GET /api/v1/b2b/companies/:id', () => {
  it('returns the record of the list and 404 for an unknown company', async () => {
    const list = await service.get('/api/v1/b2b/companies?per_page=1', sandboxKey);
    const one = await service.get(`/api/v1/b2b/companies/${list.body.data[0].id}`, sandboxKey);
    expect(one.body).toEqual({ success: true, vertical: 'b2b', data: list.body.data[0] });
    expect((await service.get('/api/v1/b2b/companies/b2b_99999999', sandboxKey)).status).toBe(404);
  });
});

const RELATIONS = `query Relations($perPage: Int) {
  companies(perPage: $perPage, sort: ID_ASC) { nodes { id contacts { id companyId company { id } } } }
  contacts(perPage: $perPage) { nodes { id companyId company { id name } } }
  properties(perPage: $perPage) { nodes { id ownerId ownerName owner { id name properties(limit: 3) { id ownerId } } } }
  owners(perPage: $perPage) { nodes { id propertiesCount properties(limit: 100) { id owner { id } } } }
  attorneys(perPage: $perPage) { nodes { id firmId firmName firm { id name } } }
  firms(perPage: $perPage) { nodes { id size attorneysCount partners { id isPartner firm { id } } attorneys(limit: 100) { id firmId } } }
}`;

describe('GraphQL: the records and their relations', () => {
  it('navigates company ↔ contacts, property ↔ owner, firm ↔ attorneys and partners, consistently', async () => {
    const data = await service.graphql(RELATIONS, { perPage: 10 }, sandboxKey);
    for (const company of data.companies.nodes) {
      expect(company.contacts.length).toBeGreaterThan(0);
      for (const contact of company.contacts)
        expect([contact.companyId, contact.company.id]).toEqual([company.id, company.id]);
    }
    for (const contact of data.contacts.nodes) expect(contact.company.id).toBe(contact.companyId);
    for (const property of data.properties.nodes) {
      expect([property.owner.id, property.owner.name]).toEqual([property.ownerId, property.ownerName]);
      expect(property.owner.properties.every((other: { ownerId: string }) => other.ownerId === property.ownerId)).toBe(
        true,
      );
    }
    for (const owner of data.owners.nodes) {
      expect(owner.properties.length).toBe(Math.min(owner.propertiesCount, 100));
      expect(owner.properties.every((property: { owner: { id: string } }) => property.owner.id === owner.id)).toBe(
        true,
      );
    }
    for (const attorney of data.attorneys.nodes) expect(attorney.firm?.id ?? null).toBe(attorney.firmId);
    for (const firm of data.firms.nodes) {
      expect(firm.attorneysCount).toBe(firm.size);
      expect(firm.attorneys.every((attorney: { firmId: string }) => attorney.firmId === firm.id)).toBe(true);
      expect(
        firm.partners.every(
          (partner: { isPartner: boolean; firm: { id: string } }) => partner.isPartner && partner.firm.id === firm.id,
        ),
      ).toBe(true);
    }
  });

  it('costs the same number of SQL statements for 5 records as for 20 (no N+1)', async () => {
    const statements = async (perPage: number) => {
      service.queries.length = 0;
      await service.graphql(RELATIONS, { perPage }, sandboxKey);
      return readsOf(service.queries, 'companies', 'contacts', 'properties', 'owners', 'attorneys', 'firms').length;
    };
    // A document runs compiled from its second execution on (gateway/execution/compiled-execution.ts), and graphql-jit
    // batches this query's relation loads in other rounds than graphql-js: both measured calls run compiled.
    await statements(5);
    const few = await statements(5);
    expect(await statements(20)).toBe(few);
  });

  it('serves the REST page in one GraphQL query, and pages connections by cursor', async () => {
    const rest = await service.get('/api/v1/realestate/properties?min_equity=50&state=CA', sandboxKey);
    const data = await service.graphql(
      `{ properties(minEquity: 50, state: "CA") { nodes { id address equityPct } pageInfo { total totalPages } } }`,
      {},
      sandboxKey,
    );
    expect(data.properties.nodes.map((node: { id: string }) => node.id)).toEqual(
      rest.body.data.map((row: { id: string }) => row.id),
    );
    expect(data.properties.pageInfo.total).toBe(rest.body.pagination.total);
    const page = `query ($after: String) { attorneysConnection(first: 20, after: $after, barStatus: active) {
      edges { cursor node { id barStatus } } pageInfo { hasNextPage endCursor } } }`;
    const one = await service.graphql(page, {}, sandboxKey);
    const two = await service.graphql(page, { after: one.attorneysConnection.pageInfo.endCursor }, sandboxKey);
    const ids = [...one.attorneysConnection.edges, ...two.attorneysConnection.edges].map(
      (edge: { node: { id: string } }) => edge.node.id,
    );
    const expected = await service.databases.sandbox.sql.query<{ id: number }>(
      `SELECT id FROM attorneys WHERE bar_status = 'active' ORDER BY id LIMIT 40`,
    );
    expect(ids).toEqual(expected.map(({ id }) => `atty_${id}`));
  });

  it('reports bad arguments with the machine code in extensions', async () => {
    const result = await service.graphqlRaw('{ owners(minProperties: -1) { nodes { id } } }', {}, sandboxKey);
    expect(result.body.errors[0].extensions).toMatchObject({
      code: 'invalid_parameter',
      details: { minProperties: expect.any(String) },
    });
  });
});
