import type { RecordSeed } from '../record-seed.ts';
import { COMPANY_COLUMNS, companyRows } from '../generate/company.ts';

/** Companies: one per scale unit. */
export const recordSeed: RecordSeed = {
  columns: COMPANY_COLUMNS,
  expectedRows: (ctx) => ctx.scale,
  rows: (ctx) => companyRows(ctx),
};
