import { Cron } from 'croner';

/**
 * The public sources the service keeps itself current from, with their schedule and what each one's records
 * are (docs/data-sources.md "Live ingestion"). The fetch side (URLs, files) is gateway/ingest/source-files.ts; this
 * part is what `GET /api/stats/sources` reports, so the subgraph and the schedule read one list.
 */
export interface SourceSchedule {
  /** The importer's source name (`npm run import -- <name>`), also the job's name. */
  name: string;
  /** Cron, in UTC. */
  cron: string;
  /** The cadence in words, as the docs and the stats state it. */
  cadence: string;
  /** The source's records: a count and the newest record date, SQL written here only. */
  records: { from: string; date: string | null };
}

export const SOURCE_SCHEDULES: readonly SourceSchedule[] = [
  {
    name: 'members',
    cron: '0 7 * * *',
    cadence: 'daily',
    records: { from: 'members WHERE in_office', date: null },
  },
  {
    name: 'legislators-historical',
    cron: '10 7 * * *',
    cadence: 'daily',
    records: { from: 'members WHERE NOT in_office', date: null },
  },
  {
    name: 'sec-tickers',
    cron: '20 7 * * *',
    cadence: 'daily',
    records: { from: 'company_profiles WHERE cik IS NOT NULL', date: null },
  },
  {
    name: 'sp500-constituents',
    cron: '30 7 * * *',
    cadence: 'daily',
    records: { from: "company_profiles WHERE sector <> ''", date: null },
  },
  {
    name: 'prices',
    cron: '0 23 * * *',
    cadence: 'daily',
    records: { from: 'daily_prices', date: 'date' },
  },
  // The document's "refreshed every 6 hours".
  {
    name: 'senate-trades',
    cron: '0 */6 * * *',
    cadence: 'every 6 hours',
    records: { from: "congressional_trades WHERE source = 'senate-trades'", date: 'trade_date' },
  },
  {
    name: 'house-trades',
    cron: '5 */6 * * *',
    cadence: 'every 6 hours',
    records: { from: "congressional_trades WHERE source = 'house-trades'", date: 'trade_date' },
  },
  {
    name: 'sec-submissions',
    cron: '40 7 * * *',
    cadence: 'daily',
    records: { from: "signals WHERE signal_type = 'sec_filing'", date: 'created_at' },
  },
  // The EDGAR daily index, then each Form 4 it lists (the form4 importer) and the submissions of each tracked
  // company it lists an 8-K for.
  {
    name: 'edgar-index',
    cron: '15 * * * 1-5',
    cadence: 'hourly on business days',
    records: { from: 'filings', date: 'filed_at' },
  },
  {
    name: 'treasury-yields',
    cron: '0 22 * * *',
    cadence: 'daily',
    records: { from: 'yield_curve_points', date: 'date' },
  },
  {
    name: 'fred',
    cron: '0 21 * * *',
    cadence: 'daily',
    records: { from: 'macro_indicators', date: 'date' },
  },
];

/** The daily briefing, published from the day's real records after the day's sources have run. */
export const BRIEFING_SCHEDULE = { name: 'daily-briefing', cron: '30 23 * * *', cadence: 'daily' } as const;

export function sourceSchedule(name: string): SourceSchedule | undefined {
  return SOURCE_SCHEDULES.find((source) => source.name === name);
}

/** The first scheduled time after `after`. */
export function nextScheduledRun(cron: string, after: Date): Date {
  return new Cron(cron, { paused: true, timezone: 'UTC' }).nextRun(after)!;
}

/**
 * Stale: two scheduled runs have come and gone since the last success ("older than twice its cadence", counted
 * in the source's own slots, so an hourly business-day source is not stale over a weekend). A source that never
 * succeeded is stale once it has been attempted.
 */
export function isStale(cron: string, lastSuccess: Date | null, now: Date): boolean {
  if (!lastSuccess) return true;
  const first = nextScheduledRun(cron, lastSuccess);
  return nextScheduledRun(cron, first) <= now;
}
