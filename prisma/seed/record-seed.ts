import type { Row } from './copy.ts';
import type { SeedContext } from './context.ts';

/**
 * What a record type's generator, prisma/seed/generate/<kind>.ts, exports as `recordSeed`: the seed plan finds it
 * by the kind of each record type (subgraphs/verticals/records/), so a new record type needs no entry here.
 */
export interface RecordSeed {
  /** The table's columns, in the order `rows` yields them. */
  columns: readonly string[];
  /** Exact where it can be, estimated otherwise; only for progress. */
  expectedRows(ctx: SeedContext): number;
  rows(ctx: SeedContext): Iterable<Row>;
}
