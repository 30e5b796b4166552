import { z } from 'zod';

const DATE_MESSAGE = 'must be a date in the form YYYY-MM-DD';

/** A calendar date argument, YYYY-MM-DD, as a Date at midnight UTC; an impossible date (2026-02-30) fails. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_MESSAGE)
  // JavaScript rolls 2026-02-30 over to March: a date that does not print back as given does not exist.
  .refine((text) => {
    const date = utcDate(text);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, DATE_MESSAGE)
  .transform(utcDate);

/** A `date` column read as text by raw SQL (never through the driver's local-time parsing) → Date at UTC midnight. */
export function utcDate(text: string): Date {
  return new Date(`${text}T00:00:00Z`);
}

export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
