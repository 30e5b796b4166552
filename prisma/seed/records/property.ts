import type { RecordSeed } from '../record-seed.ts';
import { propertyRows } from '../generate/owner.ts';
import { PROPERTY_COLUMNS } from '../generate/property.ts';

/** Properties: one per scale unit, drawn in the owners' walk (owner.ts) so owner aggregates match. */
export const recordSeed: RecordSeed = {
  columns: PROPERTY_COLUMNS,
  expectedRows: (ctx) => ctx.scale,
  rows: (ctx) => propertyRows(ctx),
};
