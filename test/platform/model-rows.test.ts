import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { findPage } from '../../subgraphs/platform/deep-page.ts';
import type { PageReaders } from '../../subgraphs/platform/deep-page.ts';
import { delegateOf } from '../../subgraphs/platform/model-delegate.ts';
import { rowShape, sqlPageReaders } from '../../subgraphs/platform/model-rows.ts';
import type { ModelRow } from '../../subgraphs/platform/model-rows.ts';
import { tableOf } from '../../subgraphs/platform/where-sql.ts';
import { listWhereCases } from '../support/list-wheres.ts';
import type { ListWhereCase } from '../support/list-wheres.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

// A list page whose selection needs no relation is read through `pg` (model-rows.ts): it must return what
// Prisma's findMany returns for the same page, value for value and type for type, or a client would see a
// different record, date or number depending on which fields it asked for.

let service: TestService;
let context: RequestContext;

beforeAll(async () => {
  service = await startTestService({ liveScale: 300 });
  const db = service.databases.live;
  const { accountId } = await service.createKey({ mode: 'live' });
  context = { viewer: { accountId, plan: 'professional', mode: 'live' }, db, loaders: new Map() };
  // Rows with the types the other lists lack: timestamps with time zone (deliveries), JSON and text lists
  // (reports), nulls in dates (an undelivered delivery).
  const endpoint = await db.prisma.webhookEndpoint.create({
    data: { accountId, url: 'https://example.com/hooks', events: ['ping'], secret: 'whsec_test' },
  });
  const event = await db.prisma.webhookEvent.create({
    data: { id: 'msg_model_rows', type: 'ping', body: '{}', attributes: { note: 'a test' } },
  });
  await db.prisma.webhookDelivery.create({ data: { endpointId: endpoint.id, eventId: event.id } });
  await db.prisma.reportJob.create({
    data: {
      accountId,
      vertical: 'b2b',
      recordType: 'companies',
      format: 'csv',
      filters: { industry: 'software', min_score: 40 },
      fields: ['company', 'state'],
      // Finished, so the test service's report worker leaves the row alone while the two readers compare it.
      status: 'failed',
      error: 'a row for the readers to compare',
      completedAt: new Date(),
    },
  });
});
afterAll(() => service?.stop());

/** Prisma's readers, as page-object.ts builds them for a selection without relations (`{}`). */
function prismaReaders(model: Prisma.ModelName): PageReaders<object, unknown, ModelRow> {
  const records = delegateOf(service.databases.live, model);
  return {
    ids: (args) => records.findMany({ ...args, select: { id: true } }) as Promise<{ id: number }[]>,
    rows: (args) => records.findMany(args) as Promise<ModelRow[]>,
  };
}

const ORDERS: Partial<Record<Prisma.ModelName, object[]>> = {
  Company: [{ aiScore: 'desc' }, { id: 'desc' }],
  Property: [{ estimatedValue: 'asc' }, { id: 'asc' }],
  Signal: [{ createdAt: 'desc' }, { id: 'desc' }],
  CongressionalTrade: [{ tradeDate: 'desc' }, { id: 'desc' }],
};

const cases = (): ListWhereCase[] => [
  ...listWhereCases(() => context),
  ['insider trades, all', 'InsiderTransaction', () => ({})],
  ['webhook deliveries, all', 'WebhookDelivery', () => ({})],
  ['reports, all', 'ReportJob', () => ({})],
];

describe('a page read through pg returns what Prisma returns', () => {
  it.each(cases())('%s', async (_name, model, build) => {
    const where = await build();
    const sql = sqlPageReaders(service.databases.live, model);
    expect(sql, `${model} has a field type the pg reader cannot read`).not.toBeNull();
    const orderBy = ORDERS[model] ?? [{ id: 'desc' }];
    for (const page of [
      { skip: 0, take: 25 },
      { skip: 7, take: 5 },
    ]) {
      const args = { where, orderBy, ...page };
      const expected = await findPage(args, prismaReaders(model));
      expect(await findPage(args, sql!)).toStrictEqual(expected);
      // The deferred join (ids first, then those rows), which deep pages take.
      expect(await findPage(args, sql!, 0)).toStrictEqual(expected);
    }
  });

  it('the cases read rows of every type the reader converts', async () => {
    const db = service.databases.live;
    const read = async (model: Prisma.ModelName) =>
      findPage({ where: {}, orderBy: [{ id: 'asc' }], skip: 0, take: 100 }, sqlPageReaders(db, model)!);
    const [delivery] = await read('WebhookDelivery');
    expect(delivery!.nextAttemptAt).toBeInstanceOf(Date);
    // Never delivered: the test's worker may attempt it, but example.com answers no webhook with a 2xx.
    expect(delivery!.deliveredAt).toBeNull();
    const [report] = await read('ReportJob');
    expect(report!.filters).toEqual({ industry: 'software', min_score: 40 });
    expect(report!.fields).toEqual(['company', 'state']);
    // A `date` column is the day at UTC midnight, as Prisma gives it.
    const [trade] = await read('CongressionalTrade');
    expect((trade!.tradeDate as Date).toISOString()).toMatch(/T00:00:00\.000Z$/);
  });
});

describe('narrowed column lists', () => {
  it('are bounded per model: past 64, a selection reads whole rows', () => {
    const db = service.databases.live;
    const whole = rowShape(db, 'CongressionalTrade')!.select;
    const fields = tableOf(db.prisma, 'CongressionalTrade').fields.map((column) => column.field);
    expect(fields.length, 'enough fields for 65 distinct pairs').toBeGreaterThan(12);
    const pairs = fields.flatMap((a, i) => fields.slice(i + 1).map((b) => new Set(['id', a, b])));
    const selects = pairs.slice(0, 65).map((pair) => rowShape(db, 'CongressionalTrade', pair)!.select);
    expect(new Set(selects.slice(0, 64)).size).toBe(64);
    for (const select of selects.slice(0, 64)) expect(select.split(', ').length).toBeLessThanOrEqual(3);
    expect(selects[64]).toBe(whole);
    // A list already kept stays narrowed.
    expect(rowShape(db, 'CongressionalTrade', pairs[0])!.select).toBe(selects[0]);
  });
});
