import type { RecordSeed } from '../record-seed.ts';
import { portfolios } from '../generate/layout.ts';
import { OWNER_COLUMNS, ownerRows } from '../generate/owner.ts';

/** Owners: one per portfolio of the layout (generate/layout.ts). */
export const recordSeed: RecordSeed = {
  columns: OWNER_COLUMNS,
  expectedRows: (ctx) => [...portfolios(ctx)].length,
  rows: (ctx) => ownerRows(ctx),
};
