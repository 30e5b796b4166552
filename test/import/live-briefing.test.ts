import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { publishDailyBriefing } from '../../subgraphs/markets/daily-briefing.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { Receiver, eventually, verifyEndpoint } from '../webhooks/receiver.ts';
import { REAL_FILES, SNAPSHOT_DAY } from './real-data.ts';

/** The daily briefing published from imported real data, served on live and announced by webhook. */
describe('the daily briefing on live data', () => {
  let service: TestService;
  let key: string;
  const receiver = new Receiver();
  const briefingText = async (day: string) =>
    (
      await service.databases.live.sql.query<{ headline: string; summary: string }>(
        `SELECT headline, summary FROM briefings WHERE date = $1::date`,
        [day],
      )
    )[0];

  beforeAll(async () => {
    await receiver.start();
    service = await startTestService({ server: { webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 2_000 } } });
    const live = service.databases.live;
    const options = { now: SNAPSHOT_DAY };
    await runImport(live, 'members', REAL_FILES.members, options);
    await runImport(live, 'house-trades', [REAL_FILES.house], options);
    await runImport(live, 'sec-submissions', [REAL_FILES.submissions], options);
    await runImport(live, 'treasury-yields', REAL_FILES.yields, options);
    ({ key } = await service.createKey({ plan: 'institutional', mode: 'live' }));
    const endpoint = await service.request('POST', '/api/webhooks', {
      key,
      body: { url: receiver.url('briefings'), events: ['briefing.published'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    receiver.secrets.set('briefings', endpoint.body.secret);
    await verifyEndpoint((method, path) => service.request(method, path, { key }), endpoint.body.id);
  });
  afterAll(async () => {
    await service?.stop();
    await receiver.stop();
  });

  it('publishes the newest day of the data from its rows, and announces it once, as /api/briefings lists it', async () => {
    const live = service.databases.live;
    // house_transactions.json: 4 disclosures dated 08/20/2026 (the newest), all by David J. Taylor (OH02):
    // GOOGL, IBP and PG purchases of $1,001 - $15,000, an MSFT sale of $15,001 - $50,000. No signal that day; the
    // newest curve is 12/29/23 (2 Yr 4.23, 10 Yr 3.88).
    expect(await publishDailyBriefing(live, { now: SNAPSHOT_DAY })).toEqual({
      day: '2026-08-20',
      created: true,
      updated: false,
      signals: 0,
      trades: 4,
    });
    expect(await briefingText('2026-08-20')).toEqual({
      headline: '4 congressional trades disclosed; David Taylor (R, house) sold MSFT ($15,001 - $50,000) on 2026-08-11',
      summary:
        'No signals on 2026-08-20. 4 congressional trades disclosed (1 sale, 3 purchases); the largest: David Taylor (R, house) sold MSFT ($15,001 - $50,000) on 2026-08-11. Treasury curve (the latest stored, of 2023-12-29): 2-year 4.23%, 10-year 3.88%, 2s10s spread -0.35 points, inverted.',
    });
    const [event] = await eventually(() => {
      const got = receiver.of('briefings');
      expect(got).toHaveLength(1);
      return got;
    });
    const listed = await service.get('/api/briefings?limit=1', key);
    expect(event!.data).toEqual(listed.body.briefings[0]);
    expect(event!.data).toMatchObject({ date: '2026-08-20', trades_count: 4, signals_count: 0 });
    const page = await service.get('/api/briefings/2026-08-20', key);
    expect(page.text).toContain('<h1>4 congressional trades disclosed; David Taylor (R, house) sold MSFT');

    // Publishing again changes nothing and announces nothing.
    expect(await publishDailyBriefing(live, { now: SNAPSHOT_DAY })).toMatchObject({ created: false, updated: false });
    // A signal of that day arriving later rewrites the text (the schedule's next run), without a second event.
    await live.sql.query(
      `INSERT INTO signals (id, ticker, company_name, signal_type, filing_type, ai_summary, materiality_score, sentiment,
                            urgent, source_url, source_key, created_at)
       VALUES (gen_random_uuid(), 'GOOGL', 'Alphabet Inc.', 'sec_filing', '8-K', 'Alphabet filed an 8-K.', 50, 'NEUTRAL',
               false, 'https://www.sec.gov/x', 'test:late-signal', '2026-08-20 15:00:00')`,
    );
    expect(await publishDailyBriefing(live, { now: SNAPSHOT_DAY })).toMatchObject({
      day: '2026-08-20',
      created: false,
      updated: true,
      signals: 1,
    });
    expect((await briefingText('2026-08-20'))!.headline).toBe('Alphabet Inc. (GOOGL): filing in focus');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.of('briefings')).toHaveLength(1);
  });

  it('writes a day of signals from its most material one and that day’s curve', async () => {
    // Tesla's 8-K of 2022-10-19 (items 2.02, 9.01: materiality 75); the curve of 10/19/22: 4.55 / 4.14.
    expect(await publishDailyBriefing(service.databases.live, { day: '2022-10-19', now: SNAPSHOT_DAY })).toMatchObject({
      day: '2022-10-19',
      created: true,
      signals: 1,
      trades: 0,
    });
    expect(await briefingText('2022-10-19')).toEqual({
      headline: 'Tesla, Inc. (TSLA): filing in focus',
      summary:
        'Top signal on 2022-10-19, materiality 75/100, neutral: Tesla, Inc. (TSLA) filed an 8-K: Item 2.02 Results of Operations and Financial Condition; Item 9.01 Financial Statements and Exhibits. No congressional trades disclosed. Treasury curve on 2022-10-19: 2-year 4.55%, 10-year 4.14%, 2s10s spread -0.41 points, inverted.',
    });
    await eventually(() => expect(receiver.of('briefings').map((event) => event.data.date)).toContain('2022-10-19'));
  });

  it('publishes nothing for a day without a signal, a disclosure or a curve of its own', async () => {
    expect(await publishDailyBriefing(service.databases.live, { day: '1985-01-01', now: SNAPSHOT_DAY })).toEqual({
      day: '1985-01-01',
      created: false,
      updated: false,
      signals: 0,
      trades: 0,
    });
    expect(await briefingText('1985-01-01')).toBeUndefined();
    expect((await service.get('/api/briefings/1985-01-01', key)).status).toBe(404);
  });

  it('serves the derived signal types to a live key', async () => {
    const macro = await service.get('/api/signals?signal_type=macro&limit=1', key);
    // The two Treasury files' 2s10s crossings; the newest, 2022-07-06, the start of the 2022-2024 inversion.
    expect(macro.body).toMatchObject({ total: 45, signals: [{ ticker: 'SPY', signal_type: 'macro' }] });
    expect(macro.body.signals[0].created_at).toBe('2022-07-06T23:00:00.000Z');
    const previews = await service.get('/api/signals?signal_type=earnings_preview', key);
    expect(previews.body.signals.map((signal: { ticker: string }) => signal.ticker)).toEqual(['TSLA']);
  });
});
