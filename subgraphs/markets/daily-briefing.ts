import type { Database } from '../platform/database.ts';
import { marketPublishingCtes } from './webhooks/event-types.ts';
import { briefingHeadline, briefingSummary } from './briefing-text.ts';
import type { BriefingCurve, BriefingRows, BriefingSignal, BriefingTrade } from './briefing-text.ts';

/**
 * The daily briefing published from real data (docs/data-sources.md "Derived signals and briefings on live
 * data"): the stored headline and summary of one day, written from that day's signals, disclosed congressional
 * trades and Treasury curve, in the `briefings` table the sandbox's generated briefings use, so `/api/briefings`
 * and `/api/briefings/:date` serve it alike. The schedule calls it at a set hour; `import -- briefing` by hand.
 */
export interface PublishedBriefing {
  /** YYYY-MM-DD; null when the database holds no signal, disclosure or curve on or before `now` at all. */
  day: string | null;
  /** A briefing was stored for a day that had none (and `briefing.published` was written with it). */
  created: boolean;
  /** The day's stored briefing was rewritten: rows of that day arrived after it was published (no new event). */
  updated: boolean;
  signals: number;
  trades: number;
}

/** The newest day with a signal, a disclosure (in force) or a Treasury curve, up to `now`. */
export async function newestDataDay(db: Database, now: Date): Promise<string | null> {
  const [row] = await db.sql.query<{ day: string | null }>(
    `SELECT greatest(
       (SELECT max(created_at) FROM signals WHERE created_at <= ($1::timestamptz AT TIME ZONE 'UTC'))::date,
       (SELECT max(disclosure_date) FROM congressional_trades
         WHERE superseded_by_id IS NULL AND disclosure_date <= ($1::timestamptz AT TIME ZONE 'UTC')::date),
       (SELECT max(date) FROM yield_curve_points WHERE date <= ($1::timestamptz AT TIME ZONE 'UTC')::date))::text AS day`,
    [now.toISOString()],
  );
  return row?.day ?? null;
}

/** What the day's briefing is written from, in the order the briefing page lists it. */
export async function briefingRows(db: Database, day: string): Promise<BriefingRows> {
  const [signals, trades, curves] = await Promise.all([
    db.sql.query<BriefingSignal>(
      `SELECT ticker, company_name, signal_type, ai_summary, materiality_score, sentiment FROM signals
        WHERE created_at >= $1::date AND created_at < $1::date + 1
        ORDER BY materiality_score DESC, created_at DESC, source_key`,
      [day],
    ),
    db.sql.query<BriefingTrade>(
      `SELECT member_name, party, chamber, ticker, asset_description, trade_type, amount_range, trade_date::text AS trade_date
         FROM congressional_trades WHERE superseded_by_id IS NULL AND disclosure_date = $1::date
        ORDER BY coalesce(amount_high, amount_low, 0) DESC, trade_date DESC, member_name, id`,
      [day],
    ),
    db.sql.query<BriefingCurve>(
      `SELECT date::text AS date, max(rate_pct) FILTER (WHERE tenor_months = 24) AS y2,
              max(rate_pct) FILTER (WHERE tenor_months = 120) AS y10
         FROM yield_curve_points WHERE date = (SELECT max(date) FROM yield_curve_points WHERE date <= $1::date)
        GROUP BY date`,
      [day],
    ),
  ]);
  return { day, signals, trades, curve: curves[0] ?? null };
}

/**
 * Stores the briefing of `day` (default: the newest day of the data) and, when the day had no stored briefing,
 * writes its `briefing.published` event in the same statement, with the day as `/api/briefings` lists it. A day
 * without a signal, a disclosure or a curve of its own gets no briefing. Publishing again rewrites the text only
 * if the day's rows changed since, without a second event.
 */
export async function publishDailyBriefing(
  db: Database,
  options: { day?: string; now?: Date } = {},
): Promise<PublishedBriefing> {
  const now = options.now ?? new Date();
  const day = options.day ?? (await newestDataDay(db, now));
  const nothing = { day, created: false, updated: false, signals: 0, trades: 0 };
  if (!day) return nothing;
  const rows = await briefingRows(db, day);
  const counts = { signals: rows.signals.length, trades: rows.trades.length };
  if (counts.signals === 0 && counts.trades === 0 && rows.curve?.date !== day) return { ...nothing, ...counts };
  const [written] = await db.sql.query<{ inserted: boolean }>(
    `WITH stored AS (
       INSERT INTO briefings AS b (date, headline, summary, generated_at) VALUES ($1::date, $2, $3, $4::timestamptz)
       ON CONFLICT (date) DO UPDATE SET headline = EXCLUDED.headline, summary = EXCLUDED.summary,
                                        generated_at = EXCLUDED.generated_at
        WHERE (b.headline, b.summary) IS DISTINCT FROM (EXCLUDED.headline, EXCLUDED.summary)
       RETURNING b.date, b.headline, (xmax = 0) AS inserted),
     recorded AS (INSERT INTO briefing_publications (day) SELECT date FROM stored WHERE inserted ON CONFLICT (day) DO NOTHING),
     ${marketPublishingCtes(`
       SELECT 'briefing.published' AS type,
              jsonb_build_object('date', s.date, 'signals_count', $5::int, 'trades_count', $6::int,
                                 'url', '/api/briefings/' || s.date, 'headline', s.headline) AS data,
              '{}'::jsonb AS attributes
         FROM stored s WHERE s.inserted`)}
     SELECT inserted FROM stored`,
    [day, briefingHeadline(rows), briefingSummary(rows), now.toISOString(), counts.signals, counts.trades],
  );
  return { day, created: written?.inserted === true, updated: written?.inserted === false, ...counts };
}
