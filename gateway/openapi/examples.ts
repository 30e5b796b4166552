import { existsSync, readFileSync } from 'node:fs';
import { SCHEMA_DIR } from '../supergraph.ts';

/**
 * One real answer per operation, recorded from the sandbox data by test/foundation/openapi.test.ts
 * (`UPDATE_OPENAPI_EXAMPLES=1`), which also fails when one no longer matches its schema.
 */
export const EXAMPLES_FILE = `${SCHEMA_DIR}openapi-examples.json`;

/** Lists cut to their first two items: an example shows the shape, not the page. */
export function trimmedExample(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmedExample);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimmedExample(item)]));
  }
  return value;
}

/** `GET /api/signals` → its recorded answer. */
export function recordedExamples(): Record<string, unknown> {
  return existsSync(EXAMPLES_FILE) ? (JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, unknown>) : {};
}
