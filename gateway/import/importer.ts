import type { Database } from '../../subgraphs/platform/database.ts';
import type { RejectLog } from './rejects.ts';

/** What one import run did, printed as the last line of the command. */
export interface ImportCounts {
  /** Records read from the files (rows, array elements, transactions). */
  read: number;
  inserted: number;
  /** Already present with other values (a corrected record or a re-issued file). */
  updated: number;
  /** Already present and unchanged, or a documented "no value" placeholder (FRED `.`, a blank yield row). */
  skipped: number;
  /** Impossible records, each written to import_rejects with its reason. */
  rejected: number;
  /** Trades and members importers: the disclosed names no member matches, with why (absent when every name matched). */
  unmatched?: UnmatchedName[];
}

/** A disclosed member name that matches no member: its trades keep bioguide_id and party null. */
export interface UnmatchedName {
  name: string;
  chamber: string;
  trades: number;
  reason: string;
}

export interface ImportContext {
  db: Database;
  rejects: RejectLog;
  /** A progress line on stderr (stdout carries only the final JSON line). */
  progress(message: string): void;
  /** The clock, so tests can pin "now" for the future-date checks. */
  now: Date;
  options: ImportOptions;
}

export interface ImportOptions {
  /** Form 4: the accession number of the filing when the file name does not carry it. */
  accession?: string;
  /** Prices: the ticker of the files when their names do not carry it. */
  ticker?: string;
}

export interface Importer {
  source: string;
  /** One line for `import --help`. */
  describe: string;
  run(files: string[], context: ImportContext): Promise<ImportCounts>;
}

export function emptyCounts(): ImportCounts {
  return { read: 0, inserted: 0, updated: 0, skipped: 0, rejected: 0 };
}

/** A record that cannot be imported, with a machine reason (`implausible_year`, …) and a sentence. */
export class RecordRejection extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export function reject(code: string, detail: string): never {
  throw new RecordRejection(code, detail);
}
