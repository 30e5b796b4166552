import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { SCHEMA_DIR } from '../supergraph.ts';

/**
 * One real answer per operation and media type, recorded from the sandbox data by
 * test/rest/openapi.test.ts (`UPDATE_OPENAPI_EXAMPLES=1`), which also fails when one is missing or no
 * longer matches its schema.
 */
export const EXAMPLES_FILE = `${SCHEMA_DIR}openapi-examples.json`;

/** `GET /api/signals` for a JSON answer; another media type is named after the path (`… text/csv`). */
export function exampleKey(method: string, path: string, mediaType: string): string {
  return mediaType === 'application/json' ? `${method} ${path}` : `${method} ${path} ${mediaType}`;
}

/** Lists cut to their first two items: an example shows the shape, not the page. */
export function trimmedExample(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmedExample);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimmedExample(item)]));
  }
  return value;
}

/** A text answer as its example: a CSV file's header and first two rows (as sent); anything else whole. */
export function trimmedText(text: string, mediaType: string): string {
  if (mediaType !== 'text/csv') return text;
  // With `raw`, each record comes as `{record, raw}`; csv-parse's types do not say so.
  const rows = parse(text, { raw: true, to: 3 }) as unknown as { raw: string }[];
  return rows.map((row) => row.raw).join('');
}

/** `GET /api/signals` → its recorded answer. */
export function recordedExamples(): Record<string, unknown> {
  return existsSync(EXAMPLES_FILE) ? (JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, unknown>) : {};
}
