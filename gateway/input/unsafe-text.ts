/**
 * Text no database column can hold as sent: PostgreSQL refuses a NUL character in `text` (the statement fails),
 * and an unpaired UTF-16 surrogate has no UTF-8 form (the driver would store U+FFFD, not what was sent).
 * Both are refused at the door with a 400 naming where they were found, never passed on to fail later.
 */
const UNSAFE_CHARACTER = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_PROBLEM = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** True when a string holds a NUL character or an unpaired surrogate. */
export function isUnsafeText(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}

/** Past this depth a value is not walked further: JSON bodies nest a few levels, and the parser bounds the size. */
const MAX_DEPTH = 64;

/**
 * Adds to `details` every place in `value` (strings, array items, object member names and values) holding
 * unsafe text, named like a parameter or body field as sent (`q`, `tags.1`, `filters.city`). A member name
 * that is itself unsafe cannot be shown: it is reported under its parent's name, or `container` at the top.
 */
export function collectUnsafeText(value: unknown, container: string, details: Record<string, string>): void {
  walk(value, '', container, details, 0);
}

function walk(value: unknown, name: string, container: string, details: Record<string, string>, depth: number): void {
  if (typeof value === 'string') {
    if (isUnsafeText(value)) details[name || container] = UNSAFE_TEXT_PROBLEM;
    return;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (isUnsafeText(key)) details[name || container] = `has a name that ${UNSAFE_TEXT_PROBLEM}`;
    else walk(item, name ? `${name}.${key}` : key, container, details, depth + 1);
  }
}
