import { fc } from '@fast-check/vitest';

/** Names that are members of every plain object: looked up carelessly they find Object.prototype's. */
export const OBJECT_MEMBER_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
];

/** Characters no database text column holds as sent. */
const UNSAFE_CHARACTERS = ['\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

const WRONG_TYPES = [
  '',
  ' ',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x1F',
  '1_000',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '[object Object]',
];

const SQL_FRAGMENTS = [
  "' OR 1=1 --",
  "'; DROP TABLE leads; --",
  '%',
  '_',
  '\\',
  '$1',
  "%' AND pg_sleep(3) --",
  '"',
  "\\'",
  "E'\\x00'",
  '/*',
  '::text',
];

const PATH_FRAGMENTS = [
  '../../etc/passwd',
  '..',
  '.',
  '/',
  '%2e%2e%2f',
  '..\\..\\',
  'a/b',
  '%FF',
  '%',
  '%00',
  '?',
  '#',
  '//',
];

/** Plausible values, so a run also reaches the rules behind the type checks (ids, tickers, dates, enums). */
const PLAUSIBLE = [
  'b2b_1',
  'contact_2',
  'prop_3',
  'lead_1',
  'rpt_1',
  'AAPL',
  'NVDA',
  'CA',
  'software',
  '2026-02-30',
  '2026-01-01',
  'purchase',
  'insider_buy',
  '-ai_score',
  'name',
  'b2b,legal',
  'new',
  'contacted',
  'csv',
  'live',
  'sandbox',
  'Pelosi',
  'personal injury',
];

const hugeNumber = fc.oneof(
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.integer({ min: 2_147_483_640, max: 2_147_483_660 }).map(String),
  fc.constantFrom(String(Number.MAX_SAFE_INTEGER + 2), '9'.repeat(400), '-2147483649', '1e-400'),
);

/** A string with NUL or an unpaired surrogate somewhere in it. */
export const unsafeText = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...UNSAFE_CHARACTERS), fc.string({ maxLength: 8 }))
  .map(([before, unsafe, after]) => `${before}${unsafe}${after}`);

/** A long string: 100 kB (past what a URL may hold), or 3,000 characters (past text limits, within a URL). */
const longText = fc.oneof(
  fc
    .constantFrom(100_000, 3_000, 2_001)
    .chain((length) =>
      fc.constantFrom('x', 'é', '😀', "'").map((unit) => unit.repeat(Math.ceil(length / unit.length))),
    ),
);

/** Any value a client could put in a query or path parameter. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...OBJECT_MEMBER_NAMES), weight: 2 },
  { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 2 },
  { arbitrary: fc.constantFrom(...SQL_FRAGMENTS), weight: 2 },
  { arbitrary: fc.constantFrom(...PATH_FRAGMENTS), weight: 2 },
  { arbitrary: fc.constantFrom(...PLAUSIBLE), weight: 3 },
  { arbitrary: hugeNumber, weight: 2 },
  { arbitrary: unsafeText, weight: 3 },
  { arbitrary: longText, weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
);

/** A parameter name: mostly the route's own, sometimes an object member name or anything at all. */
export const parameterName = (known: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    ...(known.length > 0 ? [{ arbitrary: fc.constantFrom(...known), weight: 6 }] : []),
    { arbitrary: fc.constantFrom(...OBJECT_MEMBER_NAMES), weight: 2 },
    { arbitrary: hostileString.filter((name) => name.length < 200), weight: 1 },
  );

/** Any JSON value a client could put in a body field: wrong types, nesting, hostile strings. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: hostileString, weight: 6 },
    {
      arbitrary: fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
      ),
      weight: 3,
    },
    { arbitrary: fc.array(tie('value'), { maxLength: 25 }), weight: 1 },
    { arbitrary: fc.dictionary(parameterName(PLAUSIBLE.slice(0, 3)), tie('value'), { maxKeys: 4 }), weight: 1 },
  ),
})).value;

/** A JSON body for a route: its own fields (some missing) with hostile values, sometimes unknown members. */
export const hostileBody = (fields: readonly string[]): fc.Arbitrary<Record<string, unknown>> =>
  fc.dictionary(parameterName(fields), hostileJson, { maxKeys: fields.length + 2 });

/**
 * Percent-encodes a value for a URL; an unpaired surrogate has no UTF-8 form, so it is sent as the three bytes
 * a careless encoder (WTF-8) would produce.
 */
export function encodeLoosely(value: string): string {
  let encoded = '';
  for (const character of value) {
    const unit = character.charCodeAt(0);
    if (character.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else encoded += encodeURIComponent(character);
  }
  return encoded;
}
