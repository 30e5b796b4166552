import type { Row } from '../copy.ts';
import { clamp, isoDay, monthsBefore, round, weekdaysInYears, type SeedContext } from '../context.ts';
import { Rng } from '../random.ts';

/**
 * Treasury yield curves and FRED series that tell one story: a policy rate that sat near zero, rose to
 * 5.33% and is being cut. The curve's short end follows the policy rate and its long end wanders around
 * 4.4%, so it is inverted while policy is tight and steepens as cuts come. DGS2 and DGS10 are read off the
 * same curves (the 24- and 120-month tenors).
 */
export const YIELD_COLUMNS = ['date', 'tenor_months', 'rate_pct'] as const;
export const MACRO_COLUMNS = ['series_id', 'date', 'value'] as const;
export const TENORS = [1, 2, 3, 4, 6, 12, 24, 36, 60, 84, 120, 240, 360] as const;
const MONTH_MS = 30.44 * 86_400_000;

/** The policy rate `months` before the anchor: zero, a hiking cycle, a plateau, then quarter-point cuts. */
export function policyRate(months: number): number {
  if (months >= 50) return 0.08;
  if (months >= 34) return 0.08 + ((50 - months) / 16) * 5.25;
  if (months >= 16) return 5.33;
  return 5.33 - 0.25 * Math.floor((16 - months) / 3);
}

export interface CurveDay {
  date: Date;
  /** tenor in months → percent */
  rates: Map<number, number>;
}

const cache = new Map<string, CurveDay[]>();

/** Nelson-Siegel curves for every weekday of the last two years (level, slope, curvature per day). */
export function yieldCurves(ctx: SeedContext): CurveDay[] {
  const key = `${ctx.seed}:${ctx.anchor.getTime()}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const rng = Rng.for(ctx.seed, 'yield_curve');
  let level = 4.4;
  let curvature = 0;
  const lambda = 1.5; // years: where the hump of the curvature term sits
  const days = weekdaysInYears(ctx.anchor, 2).map((date): CurveDay => {
    level = level + (0.15 * (4.4 - level)) / 20 + 0.04 * rng.normal();
    curvature = clamp(curvature * 0.98 + 0.05 * rng.normal(), -1.5, 1.5);
    const short = policyRate((ctx.anchor.getTime() - date.getTime()) / MONTH_MS) + 0.03 * rng.normal();
    const slope = short - level;
    const rates = new Map<number, number>();
    for (const tenor of TENORS) {
      const x = tenor / 12 / lambda;
      const loading = (1 - Math.exp(-x)) / x;
      const rate = level + slope * loading + curvature * (loading - Math.exp(-x)) + 0.01 * rng.normal();
      rates.set(tenor, round(Math.max(0.01, rate)));
    }
    return { date, rates };
  });
  cache.set(key, days);
  return days;
}

export function* yieldCurveRows(ctx: SeedContext): Generator<Row> {
  for (const day of yieldCurves(ctx)) {
    for (const [tenor, rate] of day.rates) yield [isoDay(day.date), tenor, rate];
  }
}

export function* macroRows(ctx: SeedContext): Generator<Row> {
  const rng = Rng.for(ctx.seed, 'macro');
  const months = monthsBefore(ctx.anchor, 60);
  const monthsAgo = (date: Date) => (ctx.anchor.getTime() - date.getTime()) / MONTH_MS;
  for (const month of months) {
    yield ['FEDFUNDS', isoDay(month), round(Math.max(0.05, policyRate(monthsAgo(month)) - 0.01 + 0.01 * rng.normal()))];
  }
  // CPI compounds: ~0.6% a month while inflation ran hot (three to five years ago), ~0.25% since.
  let cpi = 262;
  for (const month of months) {
    cpi *= 1 + (monthsAgo(month) > 36 ? 0.006 : 0.0025) + 0.0012 * rng.normal();
    yield ['CPIAUCSL', isoDay(month), round(cpi, 3)];
  }
  let unemployment = 3.7;
  for (const month of months) {
    unemployment = clamp(unemployment + 0.05 * (4.1 - unemployment) + 0.08 * rng.normal(), 3.3, 5.5);
    yield ['UNRATE', isoDay(month), round(unemployment, 1)];
  }
  const curves = yieldCurves(ctx);
  for (const [series, tenor] of [
    ['DGS2', 24],
    ['DGS10', 120],
  ] as const) {
    for (const day of curves) yield [series, isoDay(day.date), day.rates.get(tenor) ?? 0];
  }
}
