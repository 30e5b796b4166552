import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../subgraphs/index.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let alice: string;
let bob: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300, liveScale: 300 });
  ({ key: alice } = await service.createKey());
  ({ key: bob } = await service.createKey());
});
afterAll(() => service?.stop());

const save = (body: unknown, key = alice) => service.request('POST', '/api/v1/leads', { key, body });
const patch = (id: string, body: unknown, key = alice) =>
  service.request('PATCH', `/api/v1/leads/${id}`, { key, body });

async function someId(table: string, prefix: string, offset = 0): Promise<string> {
  const [row] = await service.databases.sandbox.sql.query<{ id: number }>(
    `SELECT id FROM ${table} ORDER BY id OFFSET ${offset} LIMIT 1`,
  );
  return `${prefix}_${row!.id}`;
}

describe('POST /api/v1/leads', () => {
  it('saves any record (201), returns the existing lead for the same record (200), 404 for an unknown one', async () => {
    const recordId = await someId('companies', 'b2b');
    const created = await save({ record_id: recordId, notes: 'Met at the expo', tags: ['expo', 'hot'] });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    const lead = created.body.data;
    expect(Object.keys(lead)).toEqual([
      'id',
      'record_id',
      'record_type',
      'vertical',
      'status',
      'notes',
      'tags',
      'created_at',
      'updated_at',
    ]);
    expect(lead).toMatchObject({
      record_id: recordId,
      record_type: 'company',
      vertical: 'b2b',
      status: 'new',
      notes: 'Met at the expo',
      tags: ['expo', 'hot'],
    });
    expect(lead.id).toMatch(/^lead_\d+$/);
    expect(new Date(lead.created_at).toISOString()).toBe(lead.created_at);

    const again = await save({ record_id: recordId, notes: 'different' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(lead);
    expect(await service.databases.sandbox.prisma.lead.count({ where: { recordId } })).toBe(1);

    const unknown = await save({ record_id: 'b2b_99999999' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  // Every record type the model files declare, so a new one is covered without an edit here.
  it.each(RECORD_TYPES.map((type) => [type.table, type.ids.prefix, type.kind, type.vertical]))(
    'saves a record of %s under its vertical',
    async (table, prefix, type, vertical) => {
      const recordId = await someId(table, prefix, 1); // offset 0 is the company the test above saves
      const response = await save({ record_id: recordId });
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({
        record_id: recordId,
        record_type: type,
        vertical,
        tags: [],
        notes: null,
      });
    },
  );

  it.each([
    [{}, 'record_id'],
    [{ record_id: 12 }, 'record_id'],
    [{ record_id: 'b2b_1', tags: 'hot' }, 'tags'],
    [{ record_id: 'b2b_1', tags: [1, 2] }, 'tags'],
    [{ record_id: 'b2b_1', colour: 'red' }, 'colour'],
    [{ record_id: 'banana' }, 'record_id'],
    [{ record_id: 'lead_1' }, 'record_id'],
    [{ record_id: 'b2b_1', notes: 'x'.repeat(2001) }, 'notes'],
    [{ record_id: 'b2b_1', tags: ['ok', ''] }, 'tags.1'],
  ])('rejects %j with a 400 naming %s', async (body, parameter) => {
    const response = await save(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(Object.keys(response.body.details)).toContain(parameter);
  });

  it('rejects a body that is not a JSON object', async () => {
    const response = await service.request('POST', '/api/v1/leads', { key: alice, body: ['b2b_1'] });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
  });
});

describe('PATCH /api/v1/leads/:id', () => {
  it('moves a lead new → contacted → qualified → converted, and refuses any other move with a 409', async () => {
    const { body } = await save({ record_id: await someId('properties', 'prop', 5) });
    const id = body.data.id;
    expect((await patch(id, { status: 'qualified' })).status).toBe(409);
    for (const status of ['contacted', 'qualified', 'converted']) {
      const response = await patch(id, { status });
      expect(response.status).toBe(200);
      expect(response.body.data.status).toBe(status);
    }
    const back = await patch(id, { status: 'new' });
    expect(back.status).toBe(409);
    expect(back.body).toEqual({ error: 'conflict', message: expect.any(String) });
    expect((await patch(id, { status: 'disqualified' })).status).toBe(409);
    const stored = await service.databases.sandbox.prisma.lead.findUniqueOrThrow({
      where: { id: Number(id.slice(5)) },
    });
    expect(stored.status).toBe('converted');
  });

  it('disqualifies an open lead, edits notes and tags, and validates the body', async () => {
    const { body } = await save({ record_id: await someId('attorneys', 'atty', 3) });
    const id = body.data.id;
    const edited = await patch(id, { notes: 'Call back Tuesday', tags: ['q3'] });
    expect(edited.body.data).toMatchObject({ status: 'new', notes: 'Call back Tuesday', tags: ['q3'] });
    expect(new Date(edited.body.data.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(body.data.updated_at).getTime(),
    );
    expect((await patch(id, { status: 'contacted' })).status).toBe(200);
    expect((await patch(id, { status: 'disqualified' })).body.data.status).toBe('disqualified');
    const bad = await patch(id, { status: 'won' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('status');
    expect((await patch('lead_abc', { status: 'contacted' })).status).toBe(400);
    expect((await patch('lead_99999999', { status: 'contacted' })).status).toBe(404);
  });
});

describe('GET and DELETE /api/v1/leads', () => {
  it('lists the caller’s leads with filters and paging, checked against the database', async () => {
    const { key, accountId } = await service.createKey();
    const tables = [
      ['companies', 'b2b'],
      ['contacts', 'contact'],
      ['properties', 'prop'],
      ['owners', 'owner'],
      ['firms', 'firm'],
    ];
    for (const [index, [table, prefix]] of tables.entries()) {
      const { body } = await save(
        { record_id: await someId(table!, prefix!, 10), tags: index % 2 ? ['warm'] : ['cold'] },
        key,
      );
      if (index < 2) await patch(body.data.id, { status: 'contacted' }, key);
    }
    const all = await service.get('/api/v1/leads', key);
    expect(Object.keys(all.body).sort()).toEqual(['data', 'pagination', 'success']);
    expect(all.body.pagination).toEqual({ page: 1, per_page: 25, total: 5, total_pages: 1, total_is_estimate: false });
    const times = all.body.data.map((lead: { created_at: string }) => lead.created_at);
    expect(times).toEqual([...times].sort().reverse());

    for (const [query, where] of [
      ['status=contacted', { status: 'contacted' }],
      ['vertical=realestate', { vertical: 'realestate' }],
      ['tag=warm', { tags: { has: 'warm' } }],
      ['status=new&vertical=realestate', { status: 'new', vertical: 'realestate' }],
    ] as const) {
      const response = await service.get(`/api/v1/leads?${query}`, key);
      const expected = await service.databases.sandbox.prisma.lead.findMany({
        where: { accountId, ...where },
        orderBy: { id: 'asc' },
      });
      expect(expected.length).toBeGreaterThan(0);
      expect(response.body.data.map((lead: { id: string }) => lead.id).sort()).toEqual(
        expected.map((lead) => `lead_${lead.id}`).sort(),
      );
    }
    const second = await service.get('/api/v1/leads?per_page=2&page=3', key);
    expect(second.body.data.length).toBe(1);
    expect((await service.get('/api/v1/leads?per_page=2&page=4', key)).body.data).toEqual([]);
    for (const query of ['status=won', 'vertical=space', 'per_page=101', 'sort=name', 'page=-1']) {
      const response = await service.get(`/api/v1/leads?${query}`, key);
      expect(response.status, query).toBe(400);
      expect(response.body.error).toBe('invalid_parameter');
    }
  });

  it('deletes a lead; it is gone afterwards', async () => {
    const { body } = await save({ record_id: await someId('owners', 'owner', 20) });
    const deleted = await service.request('DELETE', `/api/v1/leads/${body.data.id}`, { key: alice });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(body.data.id);
    expect((await service.get(`/api/v1/leads/${body.data.id}`, alice)).status).toBe(404);
    expect((await service.request('DELETE', `/api/v1/leads/${body.data.id}`, { key: alice })).status).toBe(404);
  });
});

describe('lead isolation', () => {
  it('never shows, changes or deletes another account’s lead (404, not 403)', async () => {
    const recordId = await someId('firms', 'firm', 7);
    const { body } = await save({ record_id: recordId, tags: ['secret'] }, alice);
    const id = body.data.id;
    const reads = [
      await service.get(`/api/v1/leads/${id}`, bob),
      await patch(id, { status: 'contacted' }, bob),
      await service.request('DELETE', `/api/v1/leads/${id}`, { key: bob }),
    ];
    for (const response of reads) {
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
    }
    expect((await service.get('/api/v1/leads?tag=secret', bob)).body.data).toEqual([]);
    const gql = await service.graphqlRaw(
      'mutation ($id: String!) { updateLeadStatus(input: { id: $id, status: contacted }) { id } }',
      { id },
      bob,
    );
    expect(gql.body.errors[0].extensions.code).toBe('not_found');
    expect((await service.graphql('query ($id: String!) { lead(id: $id) { id } }', { id }, bob)).lead).toBeNull();
    // Bob saving the same record gets a lead of his own.
    const bobs = await save({ record_id: recordId }, bob);
    expect(bobs.status).toBe(201);
    expect(bobs.body.data.id).not.toBe(id);
    const stored = await service.databases.sandbox.prisma.lead.findUniqueOrThrow({
      where: { id: Number(id.slice(5)) },
    });
    expect(stored).toMatchObject({ status: 'new', tags: ['secret'] });
  });

  it('keeps a live key’s leads in the live database', async () => {
    const live = await service.createKey({ mode: 'live' });
    const [row] = await service.databases.live.sql.query<{ id: number }>(
      'SELECT id FROM companies ORDER BY id LIMIT 1',
    );
    const response = await save({ record_id: `b2b_${row!.id}` }, live.key);
    expect(response.status).toBe(201);
    expect(await service.databases.live.prisma.lead.count({ where: { accountId: live.accountId } })).toBe(1);
    expect(await service.databases.sandbox.prisma.lead.count({ where: { accountId: live.accountId } })).toBe(0);
  });
});

describe('GraphQL lead mutations', () => {
  it('saveLead, updateLeadStatus and leads with the saved record', async () => {
    const { key } = await service.createKey();
    const recordId = await someId('contacts', 'contact', 2);
    const saved = await service.graphql(
      `mutation ($input: SaveLeadInput!) { saveLead(input: $input) { created lead { id status record { __typename ... on Contact { id name } } } } }`,
      { input: { recordId, tags: ['gql'] } },
      key,
    );
    expect(saved.saveLead).toMatchObject({
      created: true,
      lead: { status: 'new', record: { __typename: 'Contact', id: recordId } },
    });
    const moved = await service.graphql(
      `mutation ($input: UpdateLeadStatusInput!) { updateLeadStatus(input: $input) { status } }`,
      { input: { id: saved.saveLead.lead.id, status: 'contacted' } },
      key,
    );
    expect(moved.updateLeadStatus.status).toBe('contacted');
    const illegal = await service.graphqlRaw(
      `mutation ($input: UpdateLeadStatusInput!) { updateLeadStatus(input: $input) { status } }`,
      { input: { id: saved.saveLead.lead.id, status: 'converted' } },
      key,
    );
    expect(illegal.body.errors[0].extensions.code).toBe('conflict');
    const listed = await service.graphql(
      `{ leads(tag: "gql") { nodes { id record { ... on Contact { id } } } pageInfo { total } } }`,
      {},
      key,
    );
    expect(listed.leads.pageInfo.total).toBe(1);
    expect(listed.leads.nodes[0].record.id).toBe(recordId);
  });
});
