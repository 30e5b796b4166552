/**
 * `defineRoute` (gateway/rest/define-route.ts): a hand-coded route's one statement. Its path parameters must be
 * the ones its schema states (else the document would describe another route than the one registered), and
 * every route defined with it checks access first, then refuses unknown parameters like the table routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../gateway/rest/define-route.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

describe('a definition', () => {
  const route = {
    method: 'GET',
    tag: 'Test',
    operationId: 'Thing',
    summary: 'A thing.',
    response: z.object({}),
  } as const;

  it('states exactly the parameters of its path', () => {
    expect(() => defineRoute({ ...route, path: '/api/things/:id' })).toThrow(/params must state/);
    expect(() =>
      defineRoute({ ...route, path: '/api/things/:id', params: z.strictObject({ id: z.string(), extra: z.string() }) }),
    ).toThrow(/params must state/);
    expect(() => defineRoute({ ...route, path: '/api/things', params: z.strictObject({ id: z.string() }) })).toThrow(
      /params must state/,
    );
    const defined = defineRoute({ ...route, path: '/api/things/:id', params: z.strictObject({ id: z.string() }) });
    expect(defined.path).toBe('/api/things/:id');
  });
});

describe('the report download, registered through its definition', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ sandboxScale: 0 });
  }, 120_000);
  afterAll(() => service?.stop());

  it('refuses a plan without reports before it reads the parameters', async () => {
    const { key } = await service.createKey({ plan: 'analyst', mode: 'sandbox' });
    const refused = await service.get('/api/v1/reports/rpt_1/download?format=csv', key);
    expect(refused.status).toBe(403);
  });

  it('names an unknown query parameter in a 400, as every route does', async () => {
    const { key } = await service.createKey({ plan: 'institutional', mode: 'sandbox' });
    const refused = await service.get('/api/v1/reports/rpt_1/download?format=csv', key);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'invalid_parameter',
      details: { format: 'is not a parameter of this endpoint' },
    });
    expect((await service.get('/api/v1/reports/rpt_1/download', key)).status).toBe(404);
  });
});
