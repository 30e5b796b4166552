import type { RecordType } from '../../../subgraphs/data-loading.ts';
import type { ColumnSource } from './column-map.ts';
import type { LoadField, LoadReference } from './load-fields.ts';

/** A row ready for the staging table, or why it cannot be loaded (every problem of the row, by field). */
export type Converted =
  | { externalId: string; values: Map<string, unknown>; references: Map<string, number | string> }
  | { externalId?: string; problems: string[] };

// A Map: a cell reading `constructor` must be no boolean, not Object.prototype's member.
const BOOLEANS = new Map<string, boolean>([
  ...['true', 't', 'yes', 'y', '1'].map((word) => [word, true] as const),
  ...['false', 'f', 'no', 'n', '0'].map((word) => [word, false] as const),
]);
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Converts one row of a file: each mapped value to its column's type, then the type's derived fields, then its
 * rules (the API's). The record's key is its `external_id`, else its natural key
 * (subgraphs/verticals/record-type/define.ts).
 */
export function rowConverter(
  type: RecordType,
  fields: LoadField[],
  references: LoadReference[],
  sources: Map<string, ColumnSource>,
) {
  const { required, naturalKey, rules, derive, inputs = {} } = type.load;
  const externalSource = sources.get('external_id');
  const referenceFields = new Set(references.map((reference) => reference.field.name));
  return (row: Record<string, unknown>): Converted => {
    // COPY refuses a NUL character for the whole load: it is this row's problem, not the file's.
    const withNul = Object.keys(row).find((heading) => hasNul(row[heading]));
    if (withNul !== undefined) return { problems: [`${withNul}: contains a NUL character`] };
    const problems: string[] = [];
    const record: Record<string, unknown> = {};
    for (const field of fields) {
      const source = sources.get(field.name);
      if (!source || referenceFields.has(field.name)) continue;
      const raw = valueAt(row, source);
      if (raw === undefined || raw === null || raw === '') continue;
      const value = toType(raw, field, source.scale);
      if (value instanceof Problem) problems.push(`${field.name}: ${value.message}`);
      else record[field.name] = value;
    }
    for (const [name, rule] of Object.entries(inputs)) {
      const given = cell(row, sources.get(name));
      if (given === undefined) continue;
      const checked = rule.safeParse(given);
      if (checked.success) record[name] = checked.data;
      else problems.push(`${name}: ${checked.error.issues[0]?.message ?? 'is not valid'}`);
    }
    for (const [name, rule] of Object.entries(derive ?? {}))
      if (record[name] === undefined && !sources.has(name)) record[name] = rule.value(record);
    for (const [name, rule] of Object.entries(rules)) {
      if (record[name] === undefined) continue;
      const checked = rule.safeParse(record[name]);
      if (checked.success) record[name] = checked.data;
      else problems.push(`${name}: ${checked.error.issues[0]?.message ?? 'is not valid'}`);
    }
    for (const name of required) if (record[name] === undefined) problems.push(`${name}: is required`);

    const referenced = new Map<string, number | string>();
    for (const reference of references) {
      const byId = cell(row, sources.get(reference.field.name));
      const external = cell(row, sources.get(reference.externalField));
      if (byId !== undefined) {
        const id =
          reference.target.ids.match(byId) ?? reference.target.ids.match(`${reference.target.ids.prefix}_${byId}`);
        if (id === undefined)
          problems.push(`${reference.field.name}: must be an id like ${reference.target.ids.prefix}_123`);
        else referenced.set(reference.field.name, id);
      } else if (external !== undefined) referenced.set(reference.externalField, external);
      else if (reference.field.notNull)
        problems.push(`${reference.field.name}: is required (or ${reference.externalField})`);
    }

    const externalId =
      cell(row, externalSource) ??
      (naturalKey.every((name) => record[name] !== undefined)
        ? naturalKey.map((name) => String(record[name]).trim().toLowerCase().replace(/\s+/g, ' ')).join('|')
        : undefined);
    // Without external_id the key is the natural key, whose fields are required and reported above when missing.
    if (externalId === undefined && problems.length === 0)
      problems.push(`external_id: is required without ${naturalKey.join(' and ')}`);
    else if (externalId !== undefined && externalId.length > 200)
      problems.push('external_id: must be at most 200 characters');
    if (problems.length) return { externalId, problems };
    return { externalId: externalId!, values: new Map(Object.entries(record)), references: referenced };
  };
}

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  return typeof value === 'object' && value !== null && Object.values(value).some(hasNul);
}

class Problem {
  constructor(readonly message: string) {}
}

/** The row's value under the source's heading; own keys only, so a JSON line without `constructor` has none there. */
const valueAt = (row: Record<string, unknown>, source: ColumnSource | undefined) =>
  source && Object.hasOwn(row, source.heading) ? row[source.heading] : undefined;

/** A text value as given (JSON numbers too), or undefined when empty. */
function cell(row: Record<string, unknown>, source: ColumnSource | undefined): string | undefined {
  const raw = valueAt(row, source);
  if (raw === undefined || raw === null) return undefined;
  const text = String(raw).trim();
  return text === '' ? undefined : text;
}

function toType(raw: unknown, field: LoadField, scale = 1): unknown {
  if (field.list) {
    const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(/[;|]/);
    return items.map((item) => item.trim()).filter(Boolean);
  }
  switch (field.type) {
    case 'Int':
    case 'Float': {
      const number =
        typeof raw === 'number'
          ? raw
          : Number(
              String(raw)
                .replace(/[$,\s]/g, '')
                .replace(/^\((.*)\)$/, '-$1'),
            );
      if (!Number.isFinite(number) || String(raw).trim() === '') return new Problem(`"${String(raw)}" is not a number`);
      const scaled = number * scale;
      if (field.type === 'Float') return scaled;
      // `Revenue (M)*1000000` turns 500343.0 into a whole number; anything else must be one already.
      const whole = Math.round(scaled);
      if (Math.abs(whole - scaled) > 1e-6 * Math.max(1, Math.abs(scaled)) || !Number.isSafeInteger(whole))
        return new Problem(`"${String(raw)}" is not a whole number`);
      if (Math.abs(whole) > 2_147_483_647) return new Problem(`${whole} is too large`);
      return whole;
    }
    case 'Boolean': {
      if (typeof raw === 'boolean') return raw;
      const value = BOOLEANS.get(String(raw).trim().toLowerCase());
      return value ?? new Problem(`"${String(raw)}" is not true or false`);
    }
    case 'DateTime': {
      const text = String(raw).trim();
      if (!DATE.test(text) || Number.isNaN(Date.parse(text)))
        return new Problem(`"${text}" is not a date such as 2024-03-31`);
      return text;
    }
    default:
      return typeof raw === 'string' ? raw.trim() : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
  }
}
