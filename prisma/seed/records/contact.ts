import type { RecordSeed } from '../record-seed.ts';
import { companyCores } from '../generate/company.ts';
import { CONTACT_COLUMNS, contactRows } from '../generate/contact.ts';

/** Contacts: 2-5 per company (3.15 on average), written after the companies. */
export const recordSeed: RecordSeed = {
  columns: CONTACT_COLUMNS,
  expectedRows: (ctx) => Math.round(ctx.scale * 3.15),
  rows: (ctx) => contactRows(ctx, companyCores(ctx)),
};
