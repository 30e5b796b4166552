import type { ImportCounts } from '../importer.ts';
import { SIGNALS_TABLE } from '../sec/tables.ts';

/**
 * Signals derived from stored records (docs/data-sources.md "Derived signals and briefings on live data") are
 * written by source key like the importers' own, except that `created_at` is written once: it may come from the
 * import's clock (a print seen before its usual release day), and a later import must not move it.
 */
export const DERIVED_SIGNALS_TABLE = { ...SIGNALS_TABLE, keep: ['created_at'] };

/** A progress line's account of the signals a run wrote: `3 inserted, 0 updated, 160 unchanged`. */
export function describeSignalCounts(counts: ImportCounts): string {
  return `${counts.inserted} inserted, ${counts.updated} updated, ${counts.skipped} unchanged`;
}
