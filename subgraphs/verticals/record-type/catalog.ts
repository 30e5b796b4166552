import { DECLARED_RECORD_TYPES } from '../records/index.ts';
import { VERTICALS, VERTICAL_NAMES } from '../verticals.ts';
import type { Vertical } from '../verticals.ts';
import type { RecordType } from './define.ts';

const rank = (type: RecordType) =>
  VERTICAL_NAMES.indexOf(type.vertical) * 2 + (VERTICALS[type.vertical].primary === type.name ? 0 : 1);

/**
 * Every record type (records/index.ts lists them), ordered by vertical as the documents list them, the vertical's
 * primary records first: the order of REST routes, search sources and report types.
 */
export const RECORD_TYPES: readonly RecordType[] = [...DECLARED_RECORD_TYPES].sort(
  (a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name),
);

export const RECORD_TYPE_NAMES: readonly string[] = RECORD_TYPES.map((type) => type.name);

assertConsistent(RECORD_TYPES);

export function recordTypeNamed(name: string): RecordType | undefined {
  return RECORD_TYPES.find((type) => type.name === name);
}

export function recordTypeOfKind(kind: string): RecordType | undefined {
  return RECORD_TYPES.find((type) => type.kind === kind);
}

/** The record type a vertical's reports export when they name none. */
export function primaryRecordType(vertical: Vertical): RecordType {
  return recordTypeNamed(VERTICALS[vertical].primary)!;
}

/** `b2b_12` → the company type and 12; undefined for anything that is not exactly a record id. */
export function parseRecordId(value: string): { type: RecordType; id: number } | undefined {
  for (const type of RECORD_TYPES) {
    const id = type.ids.match(value);
    if (id !== undefined) return { type, id };
  }
  return undefined;
}

/** A mistake in a model file stops the service at start (and every test), never a request. */
function assertConsistent(types: readonly RecordType[]): void {
  const problems: string[] = [];
  for (const key of ['name', 'kind', 'model', 'table'] as const) {
    const seen = new Set<string>();
    for (const type of types) {
      if (seen.has(type[key])) problems.push(`two record types have the ${key} ${type[key]}`);
      seen.add(type[key]);
    }
  }
  const prefixes = new Set<string>();
  for (const type of types) {
    if (prefixes.has(type.ids.prefix)) problems.push(`two record types have the id prefix ${type.ids.prefix}`);
    prefixes.add(type.ids.prefix);
    for (const [filter, target] of Object.entries(type.references)) {
      if (!types.some((other) => other.name === target))
        problems.push(`${type.name}.${filter} references unknown ${target}`);
    }
  }
  for (const vertical of VERTICAL_NAMES) {
    if (!types.some((type) => type.name === VERTICALS[vertical].primary))
      problems.push(`${vertical} has no ${VERTICALS[vertical].primary}`);
  }
  if (problems.length) throw new Error(`record types (subgraphs/verticals/records/index.ts): ${problems.join('; ')}`);
}
