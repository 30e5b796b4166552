import type { RecordSeed } from '../record-seed.ts';
import { FIRM_COLUMNS, firmRows } from '../generate/firm.ts';
import { legalUnits } from '../generate/layout.ts';

/** Firms: the firm units of the legal layout (generate/layout.ts). */
export const recordSeed: RecordSeed = {
  columns: FIRM_COLUMNS,
  expectedRows: (ctx) => [...legalUnits(ctx)].filter((unit) => unit.kind === 'firm').length,
  rows: (ctx) => firmRows(ctx),
};
