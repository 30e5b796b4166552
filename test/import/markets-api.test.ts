import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { DATA, REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** The markets API answering live keys from imported real data (not generated records). */
describe('markets API on imported real data', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startTestService();
    const live = service.databases.live;
    const options = { now: SNAPSHOT_DAY, accession: '0009999999-22-000001' };
    await runImport(live, 'members', REAL_FILES.members, options);
    await runImport(live, 'senate-trades', [REAL_FILES.senate], options);
    await runImport(live, 'form4', [REAL_FILES.form4], options);
    await runImport(live, 'treasury-yields', [`${DATA}treasury_yields/daily-treasury-rates.csv`], options);
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
  });
  afterAll(() => service?.stop());

  it('lists a named senator’s trades over REST and GraphQL', async () => {
    const [expected] = await service.databases.live.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM congressional_trades WHERE bioguide_id = 'W000779' AND superseded_by_id IS NULL`,
    );
    const rest = await service.get(
      `/api/congressional-trades?member=Wyden&from=2012-01-01&to=2020-12-31&limit=200`,
      key,
    );
    expect(rest.status).toBe(200);
    expect(rest.body.total).toBe(expected!.n);
    expect(new Set(rest.body.trades.map((trade: { member_name: string }) => trade.member_name))).toEqual(
      new Set(['Ron Wyden']),
    );
    const data = await service.graphql(
      `query { congressionalTrades(member: "ron wyden", ticker: "BYND", from: "2020-11-01", to: "2020-11-30") { nodes { memberName ticker tradeType owner amountLow amountHigh } } }`,
      {},
      key,
    );
    expect(data.congressionalTrades.nodes).toContainEqual({
      memberName: 'Ron Wyden',
      ticker: 'BYND',
      tradeType: 'sale',
      owner: 'spouse',
      amountLow: 50001,
      amountHigh: 100000,
    });
  });

  it('shows a ticker’s insider signal from the real Form 4', async () => {
    const response = await service.get('/api/signals/ticker/SNOW', key);
    expect(response.status).toBe(200);
    expect(response.body.signals.map((signal: { signal_type: string }) => signal.signal_type)).toEqual([
      'insider_sell',
    ]);
    expect(response.body.signals[0].ai_summary ?? JSON.stringify(response.body.signals[0])).toContain(
      'Scarpelli Michael',
    );
  });

  it('answers the real yield curve of a given day', async () => {
    const response = await service.get('/api/signals/macro/yield-curve?date=2023-09-01', key);
    expect(response.status).toBe(200);
    const text = JSON.stringify(response.body);
    // 09/01/2023: 1 Mo 5.51, 10 Yr 4.18, 30 Yr 4.29 (Treasury's own CSV).
    for (const rate of ['5.51', '4.18', '4.29']) expect(text).toContain(rate);
  });
});
