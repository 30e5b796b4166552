import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 400 });
  ({ key } = await service.createKey({ mode: 'sandbox' }));
});
afterAll(() => service?.stop());

const REVENUE = /^\$\d+(\.\d)?[KMB]$|^\$\d+$/;

describe('GET /api/v1/b2b/companies', () => {
  it('answers the documented example in the documented envelope, field by field', async () => {
    const response = await service.get('/api/v1/b2b/companies?industry=software&state=CA&min_score=80', key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const { success, vertical, data, pagination } = response.body;
    expect(Object.keys(response.body).sort()).toEqual(['data', 'pagination', 'success', 'vertical']);
    expect(success).toBe(true);
    expect(vertical).toBe('b2b');
    // The documented four, plus total_is_estimate (docs/api.md, "Totals"): exact below 10,000 matches.
    expect(Object.keys(pagination).sort()).toEqual(['page', 'per_page', 'total', 'total_is_estimate', 'total_pages']);
    expect(pagination).toMatchObject({ page: 1, per_page: 25, total_is_estimate: false });
    expect(Number.isInteger(pagination.total)).toBe(true);
    expect(pagination.total_pages).toBe(Math.ceil(pagination.total / 25));
    const [expected] = await service.databases.sandbox.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM companies WHERE industry = 'software' AND state = 'CA' AND ai_score >= 80`,
    );
    expect(pagination.total).toBe(expected!.n);
    expect(data.length).toBe(Math.min(25, expected!.n));
    expect(data.length).toBeGreaterThan(0);
    for (const company of data) {
      expect(Object.keys(company).sort()).toEqual([
        'ai_score',
        'company',
        'decision_maker',
        'email',
        'employees',
        'id',
        'industry',
        'revenue',
        'state',
        'title',
      ]);
      expect(company.id).toMatch(/^b2b_\d+$/);
      expect(typeof company.company).toBe('string');
      expect(company.industry).toBe('Software');
      expect(company.revenue).toMatch(REVENUE);
      expect(Number.isInteger(company.employees)).toBe(true);
      expect(company.state).toBe('CA');
      expect(typeof company.decision_maker).toBe('string');
      expect(typeof company.title).toBe('string');
      expect(company.email).toMatch(/^[^@\s]+@[^@\s]+$/);
      expect(Number.isInteger(company.ai_score)).toBe(true);
      expect(company.ai_score).toBeGreaterThanOrEqual(80);
    }
    // Default order: highest score first.
    const scores = data.map((company: { ai_score: number }) => company.ai_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('returns the record as stored, with the decision maker of its contacts', async () => {
    const response = await service.get('/api/v1/b2b/companies?per_page=1&sort=id', key);
    const [company] = response.body.data;
    const row = await service.databases.sandbox.prisma.company.findUniqueOrThrow({
      where: { id: Number(company.id.slice(4)) },
      include: { contacts: true },
    });
    expect(company.company).toBe(row.name);
    expect(company.ai_score).toBe(row.aiScore);
    expect(company.employees).toBe(row.employees);
    const names = row.contacts.map((contact) => `${contact.firstName} ${contact.lastName}`);
    expect(names).toContain(company.decision_maker);
  });

  it('pages without overlap and sorts by any documented field', async () => {
    const first = await service.get('/api/v1/b2b/companies?per_page=10&page=1&sort=-revenue', key);
    const second = await service.get('/api/v1/b2b/companies?per_page=10&page=2&sort=-revenue', key);
    const ids = [...first.body.data, ...second.body.data].map((company: { id: string }) => company.id);
    expect(new Set(ids).size).toBe(20);
    const revenue = await service.databases.sandbox.sql.query<{ id: number }>(
      'SELECT id FROM companies ORDER BY revenue_usd DESC, id DESC LIMIT 20',
    );
    expect(ids).toEqual(revenue.map((row) => `b2b_${row.id}`));
    const past = await service.get(`/api/v1/b2b/companies?per_page=100&page=999`, key);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.page).toBe(999);
  });

  it.each([
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['min_score=abc', 'min_score'],
    ['min_score=101', 'min_score'],
    ['state=California', 'state'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['industry=Soft%20ware', 'industry'],
    ['sort=-nope', 'sort'],
    ['colour=red', 'colour'],
    ['state=CA&state=NY', 'state'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const response = await service.get(`/api/v1/b2b/companies?${query}`, key);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(response.body.message).toContain(parameter);
    expect(Object.keys(response.body.details)).toEqual([parameter]);
    expect(response.text).not.toMatch(/at .*\.ts|SELECT|prisma/i);
  });
});

describe('authentication', () => {
  it.each([
    ['no header', undefined],
    ['a malformed header', 'Token abc'],
    ['an unknown key', 'Bearer sk_test_unknownunknownunknownunknownunknownunk'],
    ['a key without a mode prefix', 'Bearer abcdef'],
  ])('refuses %s with the 401 body', async (_case, header) => {
    const response = await service.request('GET', '/api/v1/b2b/companies', {
      headers: header ? { authorization: header } : {},
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('answers an unknown path with a JSON 404', async () => {
    const response = await service.get('/api/v1/nothing-here', key);
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('not_found');
  });
});
