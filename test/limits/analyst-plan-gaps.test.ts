import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { expectError } from '../support/expect-error.ts';
import { day, isoDay, loadMarketFixture } from '../markets/fixture.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
  await loadMarketFixture(service.databases.sandbox);
  // Stored briefings quote the day's top signal: one outside the analyst's 7 days (day 25 also has a
  // disclosed trade), one inside it.
  await service.databases.sandbox.prisma.briefing.createMany({
    data: [
      {
        date: day(25),
        headline: 'NVIDIA (NVDA): earnings ahead',
        summary: 'Top signal: NVIDIA earnings preview, hidden from analysts.',
      },
      { date: day(3), headline: 'NVIDIA (NVDA): insider buying', summary: 'Top signal: NVIDIA insider buy.' },
    ],
  });
});
afterAll(() => service?.stop());

describe('briefings outside the analyst’s 7-day signal history', () => {
  it('leave out the stored headline and summary, which describe signals the plan does not see', async () => {
    const { key } = await service.createKey({ plan: 'analyst' });
    const old = await service.get(`/api/briefings/${isoDay(25)}`, key);
    expect(old.status).toBe(200);
    expect(old.text).not.toContain('hidden from analysts');
    expect(old.text).not.toContain('earnings ahead');
    expect(old.text).toContain('<h1>Market briefing: 0 signals and 1 congressional trade</h1>');
    expect(old.text).toContain('Nydia Velázquez');
    // A day with only a stored briefing (and signals) before the window has nothing the analyst may see.
    expectError(await service.get(`/api/briefings/${isoDay(50)}`, key), 404, 'not_found');
    // Inside the window the stored briefing shows.
    expect((await service.get(`/api/briefings/${isoDay(3)}`, key)).text).toContain('Top signal: NVIDIA insider buy.');

    const list = await service.get('/api/briefings?limit=200', key);
    const byDate = new Map(
      list.body.briefings.map((briefing: { date: string; headline: string }) => [briefing.date, briefing.headline]),
    );
    expect(byDate.get(isoDay(25))).toBe('0 signals and 1 congressional trade');
    expect(byDate.has(isoDay(50))).toBe(false);
    expect(byDate.get(isoDay(3))).toBe('NVIDIA (NVDA): insider buying');
    expect(list.body.total).toBe(list.body.briefings.length);
  });

  it('show them to a plan whose history covers the day', async () => {
    const { key } = await service.createKey({ plan: 'professional' });
    const old = await service.get(`/api/briefings/${isoDay(25)}`, key);
    expect(old.text).toContain('hidden from analysts');
    expect(old.text).toContain('<h1>NVIDIA (NVDA): earnings ahead</h1>');
    const list = await service.get('/api/briefings?limit=200', key);
    expect(list.body.briefings.find((briefing: { date: string }) => briefing.date === isoDay(50)).headline).toBe(
      'Quiet <day> & more',
    );
  });
});

describe('report download below the plan', () => {
  it('is a 403 plan_required with the billing redirect, not a 404, even for a report of the account', async () => {
    const analyst = await service.createKey({ plan: 'analyst' });
    // A report written while the account was on a higher plan.
    const job = await service.databases.sandbox.prisma.reportJob.create({
      data: {
        accountId: analyst.accountId,
        vertical: 'b2b',
        recordType: 'companies',
        filters: {},
        format: 'csv',
        fields: [],
        status: 'completed',
        filePath: 'missing.csv',
      },
    });
    for (const id of [`rpt_${job.id}`, 'rpt_999999']) {
      const response = await service.get(`/api/v1/reports/${id}/download`, analyst.key);
      expectError(response, 403, 'plan_required');
      expect(response.body).toEqual({
        error: 'plan_required',
        message: 'Report generation and bulk export require the professional plan or higher; your plan is analyst.',
        redirect: '/billing',
      });
    }
    // A professional key of another account still gets the 404 that hides the report.
    const other = await service.createKey({ plan: 'professional' });
    expectError(await service.get(`/api/v1/reports/rpt_${job.id}/download`, other.key), 404, 'not_found');
  });
});
