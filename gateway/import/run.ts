import { MARKET_ROLLUPS, refreshMarketRollups, announceMarketChanges } from '../../subgraphs/data-loading.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { analyzeTables } from '../../subgraphs/platform/table-statistics.ts';
import type { ImportCounts, ImportOptions } from './importer.ts';
import { RejectLog } from './rejects.ts';
import { loadRecords } from './records/load-records.ts';
import type { RecordLoadOptions, RecordLoadResult } from './records/load-records.ts';
import { IMPORTERS } from './sources/index.ts';
import { existingTables, recordWrites } from './written-tables.ts';

export interface ImportResult extends ImportCounts {
  source: string;
}

/**
 * Runs one source's importer over its files in one transaction against an open, migrated database, then
 * refreshes the market rollups, announces new briefings and convergence changes (webhooks), and `ANALYZE`s every
 * table the run wrote: the planner's estimates (list totals past EXACT_TOTAL_LIMIT, docs/api.md "Totals") must
 * know the new rows, and PGlite has no autovacuum to get there.
 */
export async function runImport(
  db: Database,
  source: string,
  files: string[],
  options: { progress?: (message: string) => void; now?: Date } & ImportOptions = {},
): Promise<ImportResult> {
  const importer = IMPORTERS.get(source);
  if (!importer) throw new Error(`unknown source "${source}"; sources: ${[...IMPORTERS.keys()].join(', ')}`);
  if (files.length === 0) throw new Error(`${source}: no files given (expected ${importer.describe})`);
  // All or nothing: an importer that throws half-way (a bad file, a full disk, a lost connection) leaves the
  // data, its rejects and the webhook events it queued as they were before the run.
  const { counts, written, rejected } = await db.transaction(async (sql) => {
    const recording = recordWrites({ ...db, sql });
    const rejects = new RejectLog(recording.db.sql);
    const counts = await importer.run(files, {
      db: recording.db,
      rejects,
      progress: options.progress ?? (() => undefined),
      now: options.now ?? new Date(),
      options: { accession: options.accession, ticker: options.ticker },
    });
    await rejects.flush();
    return { counts, written: recording.written, rejected: rejects.byReason };
  });
  // After the commit, from what it wrote: the aggregate routes read rollups of signals and trades, the
  // announcements compare them with what was last announced, and the planner needs the new rows' statistics.
  await refreshMarketRollups(db);
  await announceMarketChanges(db, options.now);
  await analyzeWritten(db, source, [...written, ...MARKET_ROLLUPS], options.progress);
  if (rejected.size) {
    options.progress?.(`${source}: rejected ${[...rejected].map(([code, count]) => `${count} ${code}`).join(', ')}`);
  }
  return { source, ...counts };
}

/**
 * `import -- records <type> <file...>` (records/load-records.ts), then `ANALYZE` of the tables it wrote, so list
 * totals count the new records at once.
 */
export async function runRecordsLoad(
  db: Database,
  type: string,
  files: string[],
  options: RecordLoadOptions,
): Promise<RecordLoadResult> {
  const recording = recordWrites(db);
  const result = await loadRecords(recording.db, type, files, options);
  if (!result.dry_run) await analyzeWritten(db, `records ${type}`, recording.written, options.progress);
  return result;
}

async function analyzeWritten(
  db: Database,
  label: string,
  written: Iterable<string>,
  progress?: (message: string) => void,
): Promise<void> {
  const analyzed = await existingTables(db.sql, written);
  await analyzeTables(db.sql, analyzed);
  progress?.(`${label}: analyzed ${analyzed.join(', ')}`);
}
