import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { utcDay } from './usage.ts';

/** How many days a daily usage read covers, ending today (UTC). */
export const DAILY_USAGE_DAYS = { default: 30, max: 90 } as const;

const DAY_MS = 86_400_000;

export interface UsageDay {
  /** The UTC day, YYYY-MM-DD: the metering period of live calls. */
  date: string;
  /** Calls of each mode asked for that day (0 when none). */
  calls: Record<Mode, number>;
}

/**
 * An account's calls per UTC day, oldest first, every day present, from `usage_counters`: the rows the usage
 * meter writes (one per account, mode and day; limits/usage-meter.ts). Flush the meter first to include this
 * process's live calls not yet written.
 */
export async function dailyUsage(
  control: Database,
  accountId: string,
  days: number,
  now = new Date(),
): Promise<UsageDay[]> {
  const to = utcDay(now);
  const from = utcDay(new Date(now.getTime() - (days - 1) * DAY_MS));
  const rows = await control.sql.query<{ day: string; mode: Mode; calls: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, mode, calls FROM usage_counters
     WHERE account_id = $1::uuid AND day BETWEEN $2::date AND $3::date`,
    [accountId, from, to],
  );
  const result: UsageDay[] = [];
  const byDate = new Map<string, UsageDay>();
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    const day: UsageDay = { date: utcDay(new Date(now.getTime() - offset * DAY_MS)), calls: { live: 0, sandbox: 0 } };
    result.push(day);
    byDate.set(day.date, day);
  }
  for (const row of rows) {
    const day = byDate.get(row.day);
    if (day && (row.mode === 'live' || row.mode === 'sandbox')) day.calls[row.mode] += Number(row.calls);
  }
  return result;
}
