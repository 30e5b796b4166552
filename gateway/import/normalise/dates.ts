import { reject } from '../importer.ts';

/** The earliest year a record of these sources can carry (the oldest FRED series start in 1947). */
const EARLIEST_YEAR = 1900;

/**
 * A calendar date as `YYYY-MM-DD`, from `MM/DD/YYYY`, `M/D/YY` (Treasury's older layout: 50-99 → 19xx) or ISO
 * `YYYY-MM-DD`; rejects text that is not one of them or a day that does not exist (`02/30/2025`, `30/01/2025`).
 */
export function parseDate(text: string | null | undefined, field: string): string {
  const value = (text ?? '').trim();
  let year: number, month: number, day: number;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value);
  if (us) {
    month = Number(us[1]);
    day = Number(us[2]);
    year = us[3]!.length === 2 ? pivotYear(Number(us[3])) : Number(us[3]);
  } else if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    return reject('unparseable_date', `${field} "${value}" is not a date`);
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return reject('unparseable_date', `${field} "${value}" is not a calendar day`);
  }
  return date.toISOString().slice(0, 10);
}

function pivotYear(twoDigits: number): number {
  return twoDigits >= 50 ? 1900 + twoDigits : 2000 + twoDigits;
}

/**
 * Rejects a date outside what the source can hold: before `earliest` (a disclosure dated 1935 under a 2012
 * law) or after today (a trade dated 2035).
 */
export function checkPlausibleDate(
  isoDate: string,
  field: string,
  now: Date,
  earliest = `${EARLIEST_YEAR}-01-01`,
): string {
  if (isoDate < earliest) reject('implausible_year', `${field} ${isoDate} is before ${earliest}`);
  const today = now.toISOString().slice(0, 10);
  if (isoDate > today) reject('implausible_year', `${field} ${isoDate} is in the future (today is ${today})`);
  return isoDate;
}

/** Whole days from one ISO date to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}
