import { getPools, type Pools } from './pools.ts';

/** What every generator reads: the seed, the size, the day the data is relative to, and the word pools. */
export interface SeedContext {
  seed: number;
  /** Records per vertical: companies, properties and attorneys each number `scale`. */
  scale: number;
  /** Midnight UTC of the day the data is "as of"; every date is counted back from it. */
  anchor: Date;
  pools: Pools;
}

export interface GenerateOptions {
  scale: number;
  seed?: number;
  anchor?: Date;
}

export const DEFAULT_SEED = 20_240_601;
const DAY_MS = 86_400_000;

/** Today at 00:00 UTC: "last 7 days" windows stay full whenever the seed runs. */
export function startOfUtcDay(now = new Date()): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

export function createContext(options: GenerateOptions): SeedContext {
  if (!Number.isInteger(options.scale) || options.scale < 1) {
    throw new RangeError(`scale must be a positive integer, got ${options.scale}`);
  }
  const seed = options.seed ?? DEFAULT_SEED;
  return { seed, scale: options.scale, anchor: startOfUtcDay(options.anchor), pools: getPools(seed) };
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

const isoDays = new Map<number, string>();

/** `YYYY-MM-DD`: how date columns are written to COPY. Memoised per day: rows repeat a few thousand days. */
export function isoDay(date: Date): string {
  const day = Math.floor(date.getTime() / DAY_MS);
  let text = isoDays.get(day);
  if (text === undefined) {
    text = date.toISOString().slice(0, 10);
    isoDays.set(day, text);
  }
  return text;
}

export function isWeekday(date: Date): boolean {
  const day = date.getUTCDay();
  return day !== 0 && day !== 6;
}

/** The `count` weekdays before `anchor` (not including it), oldest first. */
export function weekdaysBefore(anchor: Date, count: number): Date[] {
  const days: Date[] = [];
  for (let date = addDays(anchor, -1); days.length < count; date = addDays(date, -1)) {
    if (isWeekday(date)) days.push(date);
  }
  return days.reverse();
}

/** Every weekday in the `years` years before `anchor`, oldest first. */
export function weekdaysInYears(anchor: Date, years: number): Date[] {
  const start = new Date(Date.UTC(anchor.getUTCFullYear() - years, anchor.getUTCMonth(), anchor.getUTCDate()));
  const days: Date[] = [];
  for (let date = start; date < anchor; date = addDays(date, 1)) if (isWeekday(date)) days.push(date);
  return days;
}

/** The first day of each of the `count` complete months before `anchor`'s month, oldest first. */
export function monthsBefore(anchor: Date, count: number): Date[] {
  const months: Date[] = [];
  for (let back = count; back >= 1; back--) {
    months.push(new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - back, 1)));
  }
  return months;
}

/** Rounds to `places` decimals (money to cents, percentages to one place). */
export function round(value: number, places = 2): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
