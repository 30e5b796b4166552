import { HEADLINE_EVENT } from '../../../subgraphs/markets/briefing-text.ts';
import type { Row } from '../copy.ts';
import { addDays, isoDay, type SeedContext } from '../context.ts';
import { Rng } from '../random.ts';

/**
 * Daily briefings for the last 30 days. A briefing is written from the day's signals, so it takes the top
 * signal of each day as input (index.ts reads them back from the loaded signals table) rather than
 * regenerating millions of signals to find thirty.
 */
export const BRIEFING_COLUMNS = ['date', 'headline', 'summary', 'generated_at'] as const;
export const BRIEFING_DAYS = 30;

export interface DayTopSignal {
  /** YYYY-MM-DD */
  day: string;
  ticker: string;
  companyName: string;
  signalType: string;
  aiSummary: string;
  materialityScore: number;
  sentiment: string;
  /** signals that day, the top one included */
  signals: number;
}

/** SQL that finds each day's most material signal in the briefing window (ties: the lower source key). */
export const TOP_SIGNALS_SQL = `
  SELECT to_char(day, 'YYYY-MM-DD') AS day, ticker, company_name AS "companyName", signal_type AS "signalType",
         ai_summary AS "aiSummary", materiality_score AS "materialityScore", sentiment, signals::int AS signals
  FROM (
    SELECT date_trunc('day', created_at) AS day, ticker, company_name, signal_type, ai_summary, materiality_score,
           sentiment, count(*) OVER (PARTITION BY date_trunc('day', created_at)) AS signals,
           row_number() OVER (PARTITION BY date_trunc('day', created_at)
                              ORDER BY materiality_score DESC, source_key) AS rank
    FROM signals WHERE created_at >= $1 AND created_at < $2
  ) ranked
  WHERE rank = 1`;

export function briefingWindow(ctx: SeedContext): [Date, Date] {
  return [addDays(ctx.anchor, -BRIEFING_DAYS), ctx.anchor];
}

export function* briefingRows(ctx: SeedContext, topSignals: readonly DayTopSignal[]): Generator<Row> {
  const byDay = new Map(topSignals.map((signal) => [signal.day, signal]));
  const rng = Rng.for(ctx.seed, 'briefings');
  for (let back = BRIEFING_DAYS; back >= 1; back--) {
    const date = addDays(ctx.anchor, -back);
    const day = isoDay(date);
    const top = byDay.get(day);
    // Written the evening of the day it covers.
    const generatedAt = new Date(date.getTime() + (21 * 60 + rng.between(0, 59)) * 60_000);
    if (!top) {
      yield [
        day,
        'A quiet day: no material signals',
        `No filings, insider trades or macro releases on ${day} scored as material.`,
        generatedAt,
      ];
      continue;
    }
    const others = top.signals - 1;
    const headline = `${top.companyName} (${top.ticker}): ${HEADLINE_EVENT[top.signalType] ?? 'signal'}`;
    const summary =
      `Top signal on ${day}, materiality ${top.materialityScore}/100, ${top.sentiment.toLowerCase()}: ${top.aiSummary}` +
      (others > 0 ? ` ${others} other signal${others === 1 ? '' : 's'} followed.` : '');
    yield [day, headline, summary, generatedAt];
  }
}
