import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { checkPlausibleDate, parseDate } from '../normalise/dates.ts';
import { csvRows } from '../read/csv.ts';
import { convertOrReject } from '../rejects.ts';
import { deriveMacroSignals } from '../derive/macro-signals.ts';
import { describeSignalCounts } from '../derive/derived-signals.ts';

const INDICATORS_TABLE: UpsertTable = {
  table: 'macro_indicators',
  columns: { series_id: 'text', date: 'date', value: 'float8' },
  key: ['series_id', 'date'],
};

/**
 * A FRED download: `DATE,<SERIES>` (before 2024) or `observation_date,<SERIES>` (now), ISO dates, `.` for a day
 * without a value (a holiday: skipped, not rejected). Several series columns are allowed (a FRED multi-series
 * download); the series ids are the column headings.
 */
export const fredImporter: Importer = {
  source: 'fred',
  describe: 'FRED series CSV (DATE or observation_date header, "." = missing)',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(context.db.sql, INDICATORS_TABLE, counts);
    for (const file of files) {
      let series: string[] | null = null;
      for await (const row of csvRows(file)) {
        if (!series) {
          if (!/^(date|observation_date)$/i.test(row[0] ?? ''))
            throw new Error(`${file}: the first column is "${row[0]}", not DATE or observation_date: not a FRED CSV`);
          series = row.slice(1).map((heading) => heading.trim().toUpperCase());
          if (series.length === 0 || series.some((id) => !/^[A-Z0-9_]+$/.test(id)))
            throw new Error(`${file}: series headings "${series.join(',')}" are not FRED ids`);
          continue;
        }
        counts.read += 1;
        const ids = series;
        const points = await convertOrReject(
          'fred',
          row,
          () => observationPoints(row, ids, context.now),
          context.rejects,
          counts,
        );
        if (!points) continue;
        if (points.length === 0) counts.skipped += 1;
        else await writer.add(...points);
      }
    }
    await writer.flush();
    context.progress(`fred: ${counts.read} observations read`);
    // New prints are signals: derived from the stored series, so any import order gives the same signals.
    const signals = await deriveMacroSignals(context.db.sql, context.now);
    context.progress(`fred: macro signals ${describeSignalCounts(signals)}`);
    return counts;
  },
};

function observationPoints(row: string[], series: string[], now: Date) {
  const date = checkPlausibleDate(parseDate(row[0], 'date'), 'date', now);
  const points: { series_id: string; date: string; value: number }[] = [];
  series.forEach((id, index) => {
    const cell = (row[index + 1] ?? '').trim();
    if (cell === '' || cell === '.') return;
    const value = Number(cell);
    if (!Number.isFinite(value)) reject('unparseable_value', `${id} value "${cell}" on ${date}`);
    points.push({ series_id: id, date, value });
  });
  return points;
}
