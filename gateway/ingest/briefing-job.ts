import { publishDailyBriefing, refreshMarketRollups } from '../../subgraphs/data-loading.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { deriveEarningsPreviews } from '../import/derive/earnings-previews.ts';

/**
 * The schedule's daily job after the day's sources: the earnings previews whose date has come (they are written
 * only once their day has passed, which can fall between two submissions imports), then the briefing of the
 * newest day of the imported records, from that day's real rows (subgraphs/markets/daily-briefing.ts).
 */
export async function publishScheduledBriefing(db: Database, now: Date) {
  const previews = await deriveEarningsPreviews(db.sql, now);
  if (previews.inserted) await refreshMarketRollups(db);
  const briefing = await publishDailyBriefing(db, { now });
  return { previews: previews.inserted, ...briefing };
}
