import type { RecordSeed } from '../record-seed.ts';
import { ATTORNEY_COLUMNS, attorneyRows } from '../generate/attorney.ts';

/** Attorneys: one per scale unit, solo or in a firm. */
export const recordSeed: RecordSeed = {
  columns: ATTORNEY_COLUMNS,
  expectedRows: (ctx) => ctx.scale,
  rows: (ctx) => attorneyRows(ctx),
};
