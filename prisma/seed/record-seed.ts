import type { Row } from './copy.ts';
import type { SeedContext } from './context.ts';

/**
 * What a record type's generator, prisma/seed/records/<kind>.ts, exports as `recordSeed`: the seed plan finds it
 * by the kind of each record type (subgraphs/verticals/records/), so a new record type needs no entry elsewhere.
 * The entry may hold the whole generator or, as the first six do, call into generate/ where types share a walk.
 */
export interface RecordSeed {
  /** The table's columns, in the order `rows` yields them. */
  columns: readonly string[];
  /** Exact where it can be, estimated otherwise; only for progress. */
  expectedRows(ctx: SeedContext): number;
  rows(ctx: SeedContext): Iterable<Row>;
}
