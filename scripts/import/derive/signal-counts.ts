import type { ImportCounts } from '../importer.ts';

/** A progress line's account of the signals a run wrote: `3 inserted, 0 updated, 160 unchanged`. */
export function describeSignalCounts(counts: ImportCounts): string {
  return `${counts.inserted} inserted, ${counts.updated} updated, ${counts.skipped} unchanged`;
}
