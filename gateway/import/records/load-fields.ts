import { snakeCase } from '../../../subgraphs/platform/names.ts';
import { scalarFields } from '../../../subgraphs/data-loading.ts';
import type { RecordType } from '../../../subgraphs/data-loading.ts';

/** A stored field a file may fill, by its API name. */
export interface LoadField {
  name: string;
  /** The table's column (every record table maps a field to its snake_case name). */
  column: string;
  type: 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime';
  list: boolean;
  /** NOT NULL in the table: a row that leaves it empty stores the type's empty value, or is rejected if required. */
  notNull: boolean;
}

/** A field naming another record, which a file gives by API id (`company_id`) or by external id (`company_external_id`). */
export interface LoadReference {
  field: LoadField;
  externalField: string;
  target: RecordType;
}

/** Fields set by the loader itself, never read from a file. */
const LOADER_FIELDS = new Set(['source', 'external_id']);

export function loadFields(type: RecordType): LoadField[] {
  const stored = new Map(scalarFields(type.model).map((field) => [field.name, field]));
  return Object.entries(type.columns)
    .filter(([name]) => !LOADER_FIELDS.has(name))
    .map(([name, prismaName]) => {
      const field = stored.get(prismaName)!;
      return {
        name,
        column: snakeCase(prismaName),
        type: field.type as LoadField['type'],
        list: field.isList,
        notNull: field.isRequired,
      };
    });
}

export function loadReferences(type: RecordType, fields: LoadField[], types: readonly RecordType[]): LoadReference[] {
  return Object.entries(type.references).map(([filter, targetName]) => {
    const field = fields.find((candidate) => candidate.name === snakeCase(filter))!;
    const target = types.find((candidate) => candidate.name === targetName)!;
    return { field, externalField: `${snakeCase(filter).replace(/_id$/, '')}_external_id`, target };
  });
}

/** What an empty NOT NULL field holds when the file leaves it out (documented per type in docs/data-sources.md). */
export function emptyValue(field: LoadField): string {
  if (field.list) return `'{}'`;
  if (field.type === 'Boolean') return 'false';
  if (field.type === 'Int' || field.type === 'Float') return '0';
  return `''`;
}
