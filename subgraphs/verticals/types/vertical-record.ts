import type { RequestContext } from '../../platform/context.ts';
import { builder } from '../builder.ts';
import { RECORD_TYPES, parseRecordId } from '../record-type/catalog.ts';
import type { RecordType } from '../record-type/define.ts';

const typeOfRow = new WeakMap<object, RecordType>();

/**
 * One record of any type by its prefixed id. Prisma batches the `findUnique` calls of one tick per model, so a
 * page of leads or search hits costs one query per record type present, not one per row.
 */
export async function loadRecord(context: RequestContext, recordId: string): Promise<object | null> {
  const parsed = parseRecordId(recordId);
  if (!parsed) return null;
  const row = await parsed.type.findUnique(context.db, parsed.id);
  if (row) typeOfRow.set(row, parsed.type);
  return row;
}

export const VerticalRecord = builder.unionType('VerticalRecord', {
  description: 'A record of any vertical: what a lead or a search hit points at.',
  types: () => RECORD_TYPES.map((type) => type.object) as never[],
  resolveType: (row) => (typeOfRow.get(row) ?? RECORD_TYPES[0]!).model,
});
