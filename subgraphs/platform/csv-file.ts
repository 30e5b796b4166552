import { stringify } from 'csv-stringify/sync';
import type { Options } from 'csv-stringify/sync';

/**
 * The one way the service writes a CSV row (docs/security.md "Files we write"). A text cell that a spreadsheet
 * would run as a formula (leading `=`, `+`, `-`, `@`, tab or carriage return, and their full-width forms) gets a
 * leading `'`, as OWASP's CSV-injection guidance says; csv-stringify decides by the value's type, so a number
 * (`-5`, `-1.5`) stays a number and only text is changed. Lists read `a; b` (objects in them as JSON), objects
 * JSON, booleans `true`/`false`; quoting is RFC 4180's.
 */
const CSV_OPTIONS: Options = {
  escape_formulas: true,
  cast: {
    boolean: String,
    object: (value) => (Array.isArray(value) ? value.map(listItem).join('; ') : JSON.stringify(value)),
  },
};

const listItem = (item: unknown) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));

/** One line of a CSV file a person may open, with its line break. */
export const csvFileLine = (cells: readonly unknown[]): string => stringify([cells], CSV_OPTIONS);
