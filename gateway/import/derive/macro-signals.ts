import type { SqlClient } from '../../../subgraphs/platform/database.ts';
import { BatchWriter } from '../batch-writer.ts';
import { emptyCounts } from '../importer.ts';
import type { ImportCounts } from '../importer.ts';
import { DERIVED_SIGNALS_TABLE } from './derived-signals.ts';
import { curveCrossings } from './curve-inversions.ts';
import type { CurveDay } from './curve-inversions.ts';
import { PRINT_SERIES, addMonths, assessPrint, releaseEstimate } from './macro-prints.ts';
import type { MacroAssessment, Observation } from './macro-prints.ts';

/**
 * `macro` signals derived from the stored series (docs/data-sources.md "Derived signals and briefings on live
 * data"): each CPI, unemployment and federal funds print against the one before it (FRED), and each 2s10s
 * inversion of the Treasury par curve and its end. They are recomputed from the whole stored series after every
 * fred or treasury-yields import and written by their source key, so a second import of the same files writes
 * nothing.
 */

const FRED_SERIES_URL = 'https://fred.stlouisfed.org/series/';
const TREASURY_CURVE_URL =
  'https://home.treasury.gov/resource-center/data-chart-center/interest-rates/TextView?type=daily_treasury_yield_curve&field_tdr_date_value=';
/** Treasury posts the day's par curve in the late afternoon in New York: 23:00 UTC is after it all year. */
const CURVE_PUBLISHED_UTC = 'T23:00:00Z';

function signalRow(assessment: MacroAssessment, filingType: string, url: string, key: string, createdAt: Date) {
  return {
    ticker: assessment.fund.ticker,
    company_name: assessment.fund.name,
    signal_type: 'macro',
    filing_type: filingType,
    ai_summary: assessment.summary,
    materiality_score: assessment.materiality,
    sentiment: assessment.sentiment,
    urgent: assessment.materiality >= 80,
    source_url: url,
    source_key: key,
    created_at: createdAt.toISOString(),
  };
}

const earlier = (a: Date, b: Date) => (a < b ? a : b);

/** The signals of every monthly print of CPIAUCSL, UNRATE and FEDFUNDS that follows the month before it. */
export async function printSignals(sql: SqlClient, now: Date) {
  const rows = await sql.query<{ series_id: (typeof PRINT_SERIES)[number]; date: string; value: number }>(
    `SELECT series_id, date::text AS date, value FROM macro_indicators WHERE series_id = ANY($1) ORDER BY series_id, date`,
    [PRINT_SERIES],
  );
  const signals = [];
  for (const series of PRINT_SERIES) {
    const observations: Observation[] = rows.filter((row) => row.series_id === series);
    const byDate = new Map(observations.map((observation) => [observation.date, observation]));
    for (let index = 1; index < observations.length; index += 1) {
      const print = observations[index]!;
      const assessment = assessPrint(series, print, observations[index - 1], byDate.get(addMonths(print.date, -12)));
      if (!assessment) continue;
      const createdAt = earlier(releaseEstimate(series, print.date), now);
      signals.push(
        signalRow(assessment, 'FRED', `${FRED_SERIES_URL}${series}`, `macro:${series}:${print.date}`, createdAt),
      );
    }
  }
  return signals;
}

/** The signals of every 2s10s inversion of the stored Treasury curve and of its end. */
export async function curveSignals(sql: SqlClient, now: Date) {
  const days = await sql.query<CurveDay>(
    `SELECT date::text AS date,
            max(rate_pct) FILTER (WHERE tenor_months = 24) AS y2, max(rate_pct) FILTER (WHERE tenor_months = 120) AS y10
       FROM yield_curve_points WHERE tenor_months IN (24, 120)
      GROUP BY date HAVING count(*) = 2 ORDER BY date`,
  );
  return curveCrossings(days).map((crossing) =>
    signalRow(
      crossing,
      'Treasury',
      `${TREASURY_CURVE_URL}${crossing.date.slice(0, 4)}`,
      `macro:2s10s:${crossing.kind}:${crossing.date}`,
      earlier(new Date(`${crossing.date}${CURVE_PUBLISHED_UTC}`), now),
    ),
  );
}

/** Writes the macro signals of the stored series; the counts are of signals (inserted, updated, unchanged). */
export async function deriveMacroSignals(sql: SqlClient, now: Date): Promise<ImportCounts> {
  const counts = emptyCounts();
  const writer = new BatchWriter(sql, DERIVED_SIGNALS_TABLE, counts);
  for (const row of [...(await printSignals(sql, now)), ...(await curveSignals(sql, now))]) {
    counts.read += 1;
    await writer.add(row);
  }
  await writer.flush();
  return counts;
}
