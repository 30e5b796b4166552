import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { checkPlausibleDate, parseDate } from '../normalise/dates.ts';
import { csvRows } from '../read/csv.ts';
import { convertOrReject } from '../rejects.ts';
import { deriveMacroSignals } from '../derive/macro-signals.ts';
import { describeSignalCounts } from '../derive/derived-signals.ts';

const POINTS_TABLE: UpsertTable = {
  table: 'yield_curve_points',
  columns: { date: 'date', tenor_months: 'int', rate_pct: 'float8' },
  key: ['date', 'tenor_months'],
};

/**
 * Treasury's column headings → tenor in months. "1.5 Month" (added in 2025) has no whole-month tenor in the
 * data model and is left out.
 */
export function tenorMonths(heading: string): number | null {
  const match = /^(\d+)\s*(mo|month|months|yr|year|years)$/i.exec(heading.trim());
  if (!match) return null;
  const count = Number(match[1]);
  return /^y/i.test(match[2]!) ? count * 12 : count;
}

/**
 * The Treasury daily par yield curve CSV: `Date,"1 Mo",…,"30 Yr"` with `MM/DD/YYYY` dates as Treasury serves it,
 * or the older re-saved `M/D/YY` layout. One record per day, written as one point per tenor; a blank cell is a
 * tenor that did not exist that day (no point), a row blank in every column is a closed market (skipped).
 */
export const treasuryYieldsImporter: Importer = {
  source: 'treasury-yields',
  describe: 'Treasury daily par yield curve CSV (MM/DD/YYYY or M/D/YY dates)',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(context.db.sql, POINTS_TABLE, counts);
    for (const file of files) {
      let tenors: (number | null)[] | null = null;
      for await (const row of csvRows(file)) {
        if (!tenors) {
          if (!/^date$/i.test(row[0] ?? ''))
            throw new Error(`${file}: the first column is "${row[0]}", not Date: not a Treasury yield curve CSV`);
          tenors = row.map((heading, index) => (index === 0 ? null : tenorMonths(heading)));
          continue;
        }
        counts.read += 1;
        const columns = tenors;
        const points = await convertOrReject(
          'treasury-yields',
          row,
          () => dayPoints(row, columns, context.now),
          context.rejects,
          counts,
        );
        if (!points) continue;
        if (points.length === 0) counts.skipped += 1;
        else await writer.add(...points);
      }
    }
    await writer.flush();
    context.progress(`treasury-yields: ${counts.read} days read`);
    // Curve inversions are signals: derived from the stored curve, so any import order gives the same signals.
    const signals = await deriveMacroSignals(context.db.sql, context.now);
    context.progress(`treasury-yields: macro signals ${describeSignalCounts(signals)}`);
    return counts;
  },
};

function dayPoints(row: string[], tenors: (number | null)[], now: Date) {
  // The daily par yield curve series starts in 1990.
  const date = checkPlausibleDate(parseDate(row[0], 'Date'), 'Date', now, '1990-01-01');
  const points: { date: string; tenor_months: number; rate_pct: number }[] = [];
  tenors.forEach((tenor, index) => {
    const cell = (row[index] ?? '').trim();
    if (tenor === null || cell === '' || /^n\/?a$/i.test(cell)) return;
    const rate = Number(cell);
    if (!Number.isFinite(rate) || rate < -5 || rate > 30)
      reject('unparseable_rate', `${tenor}-month rate "${cell}" on ${date}`);
    points.push({ date, tenor_months: tenor, rate_pct: rate });
  });
  return points;
}
