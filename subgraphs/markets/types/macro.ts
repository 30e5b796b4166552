import type { RequestContext } from '../../platform/context.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { isoDate, utcDate } from '../../platform/dates.ts';
import { MACRO_SERIES } from '../macro-series.ts';

export interface YieldCurveSource {
  date: Date;
  points: { tenorMonths: number; ratePct: number }[];
}

const rateAt = (curve: YieldCurveSource, months: number) =>
  curve.points.find((point) => point.tenorMonths === months)?.ratePct ?? null;

/** 10-year minus 2-year, in percentage points (rounded to basis points); null when either is missing. */
export function spread2to10(curve: YieldCurveSource): number | null {
  const y2 = rateAt(curve, 24);
  const y10 = rateAt(curve, 120);
  return y2 === null || y10 === null ? null : Math.round((y10 - y2) * 100) / 100;
}

/** The stored curve of the latest date on or before `onOrBefore` (the latest of all without it), or null. */
export async function yieldCurveOn(context: RequestContext, onOrBefore?: Date): Promise<YieldCurveSource | null> {
  const rows = await context.db.sql.query<{ date: string; tenor_months: number; rate_pct: number }>(
    `SELECT date::text AS date, tenor_months, rate_pct FROM yield_curve_points
      WHERE date = (SELECT max(date) FROM yield_curve_points WHERE $1::date IS NULL OR date <= $1::date)
      ORDER BY tenor_months`,
    [onOrBefore ? onOrBefore.toISOString().slice(0, 10) : null],
  );
  if (rows.length === 0) return null;
  return {
    date: utcDate(rows[0]!.date),
    points: rows.map((row) => ({ tenorMonths: row.tenor_months, ratePct: Number(row.rate_pct) })),
  };
}

const YieldCurvePoint = builder.objectRef<YieldCurveSource['points'][number]>('YieldCurvePoint').implement({
  description: 'One maturity of a yield curve and its yield.',
  fields: (t) => ({
    tenorMonths: t.exposeInt('tenorMonths', { description: 'Maturity in months (3, 24, 120, …).' }),
    ratePct: t.exposeFloat('ratePct', { description: 'Percent.' }),
  }),
});

export const YieldCurve = builder.objectRef<YieldCurveSource>('YieldCurve').implement({
  description: 'The US Treasury par yield curve of one day.',
  fields: (t) => ({
    date: t.field({ type: 'Date', description: 'The day of the curve.', resolve: (curve) => curve.date }),
    y3m: t.float({
      nullable: true,
      description: '3-month yield in percent; null if not stored.',
      resolve: (curve) => rateAt(curve, 3),
    }),
    y2: t.float({
      nullable: true,
      description: '2-year yield in percent; null if not stored.',
      resolve: (curve) => rateAt(curve, 24),
    }),
    y5: t.float({
      nullable: true,
      description: '5-year yield in percent; null if not stored.',
      resolve: (curve) => rateAt(curve, 60),
    }),
    y10: t.float({
      nullable: true,
      description: '10-year yield in percent; null if not stored.',
      resolve: (curve) => rateAt(curve, 120),
    }),
    y30: t.float({
      nullable: true,
      description: '30-year yield in percent; null if not stored.',
      resolve: (curve) => rateAt(curve, 360),
    }),
    spread2To10: t.float({ nullable: true, description: 'y10 - y2 in percentage points.', resolve: spread2to10 }),
    inverted: t.boolean({
      description: 'The 2-year yields more than the 10-year.',
      resolve: (curve) => (spread2to10(curve) ?? 0) < 0,
    }),
    points: t.field({
      type: [YieldCurvePoint],
      description: 'Every stored maturity, shortest first.',
      resolve: (curve) => curve.points,
    }),
  }),
});

interface IndicatorSource {
  seriesId: string;
  value: number;
  date: Date;
  previousValue: number | null;
  previousDate: Date | null;
}

const MacroIndicator = builder.objectRef<IndicatorSource>('MacroIndicator').implement({
  description: 'A macro series (FRED) with its latest and previous observations.',
  fields: (t) => ({
    seriesId: t.exposeString('seriesId', { description: 'The FRED series id, e.g. UNRATE.' }),
    name: t.string({
      description: 'The series’ name; its id when the service does not know it.',
      resolve: (indicator) => MACRO_SERIES[indicator.seriesId]?.name ?? indicator.seriesId,
    }),
    unit: t.string({
      nullable: true,
      description: 'The unit of `value`, e.g. percent; null for an unknown series.',
      resolve: (indicator) => MACRO_SERIES[indicator.seriesId]?.unit ?? null,
    }),
    value: t.exposeFloat('value', { description: 'The latest observation, in `unit`.' }),
    date: t.field({ type: 'Date', description: 'The date of `value`.', resolve: (indicator) => indicator.date }),
    previousValue: t.exposeFloat('previousValue', {
      nullable: true,
      description: 'The observation before it; null with one.',
    }),
    previousDate: t.field({
      type: 'Date',
      nullable: true,
      description: 'The date of `previousValue`; null with one observation.',
      resolve: (indicator) => indicator.previousDate,
    }),
    change: t.float({
      nullable: true,
      description: 'value - previousValue.',
      resolve: (indicator) =>
        indicator.previousValue === null
          ? null
          : Math.round((indicator.value - indicator.previousValue) * 10_000) / 10_000,
    }),
  }),
});

const yieldCurveArguments = defineArguments({ date: argument('String', isoDate, { description: 'YYYY-MM-DD' }) });

builder.queryFields((t) => ({
  yieldCurve: t.field({
    type: YieldCurve,
    description: 'The latest stored yield curve, or the latest on or before `date`; not_found without data.',
    args: yieldCurveArguments.graphql(t.arg),
    resolve: async (_root, args, context) => {
      const { date } = yieldCurveArguments.parse(args);
      const curve = await yieldCurveOn(context, date);
      if (!curve) throw new NotFoundError('Yield curve data');
      return curve;
    },
  }),
  macroIndicators: t.field({
    type: [MacroIndicator],
    description: 'Every stored macro series with its latest and previous observations, by series id.',
    resolve: async (_root, _args, context) => {
      const rows = await context.db.sql.query<{ series_id: string; date: string; value: number; rank: number }>(
        `SELECT series_id, date::text AS date, value, rank::int AS rank FROM (
           SELECT series_id, date, value, row_number() OVER (PARTITION BY series_id ORDER BY date DESC) AS rank
             FROM macro_indicators) AS ranked
          WHERE rank <= 2 ORDER BY series_id, rank`,
      );
      const indicators: IndicatorSource[] = [];
      for (const row of rows) {
        if (row.rank === 1) {
          indicators.push({
            seriesId: row.series_id,
            value: Number(row.value),
            date: utcDate(row.date),
            previousValue: null,
            previousDate: null,
          });
        } else {
          const latest = indicators[indicators.length - 1]!;
          latest.previousValue = Number(row.value);
          latest.previousDate = utcDate(row.date);
        }
      }
      return indicators;
    },
  }),
}));
