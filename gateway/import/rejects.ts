import { createHash } from 'node:crypto';
import type { SqlClient } from '../../subgraphs/platform/database.ts';
import { RecordRejection } from './importer.ts';
import type { ImportCounts } from './importer.ts';

/**
 * Rejected records: written to import_rejects with their reason, once per record (the record's hash is part of
 * the key, so importing a file twice lists its rejects once), and counted.
 */
export class RejectLog {
  private pending: { source: string; reason: string; record: unknown; record_key: string }[] = [];
  // Identical records rejected twice in one run (two blank rows) stay two rejects: the hash gets an occurrence.
  private seen = new Map<string, number>();
  /** Rejections of this run by reason code, for the progress summary. */
  readonly byReason = new Map<string, number>();

  constructor(private readonly sql: SqlClient) {}

  async add(source: string, error: RecordRejection, record: unknown, counts: ImportCounts): Promise<void> {
    counts.rejected += 1;
    this.byReason.set(error.code, (this.byReason.get(error.code) ?? 0) + 1);
    const hash = createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 32);
    const occurrence = this.seen.get(hash) ?? 0;
    this.seen.set(hash, occurrence + 1);
    this.pending.push({ source, reason: error.message, record, record_key: `${hash}:${occurrence}` });
    if (this.pending.length >= 500) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    await this.sql.query(
      `INSERT INTO import_rejects (source, reason, record, record_key)
       SELECT source, reason, record, record_key
       FROM jsonb_to_recordset($1::jsonb) AS x(source text, reason text, record jsonb, record_key text)
       ON CONFLICT (source, record_key) DO UPDATE SET reason = EXCLUDED.reason`,
      [JSON.stringify(batch)],
    );
  }
}

/** Runs one record's conversion: a RecordRejection becomes a logged reject, any other error stops the run. */
export async function convertOrReject<T>(
  source: string,
  record: unknown,
  convert: () => T,
  rejects: RejectLog,
  counts: ImportCounts,
): Promise<T | undefined> {
  try {
    return convert();
  } catch (error) {
    if (!(error instanceof RecordRejection)) throw error;
    await rejects.add(source, error, record, counts);
    return undefined;
  }
}

export interface ListedReject {
  reason: string;
  record: unknown;
  createdAt: Date;
}

/** The rejects of a source, oldest first, for `import -- rejects <source>`. */
export async function listRejects(sql: SqlClient, source: string): Promise<ListedReject[]> {
  const rows = await sql.query<{ reason: string; record: unknown; created_at: Date }>(
    `SELECT reason, record, created_at FROM import_rejects WHERE source = $1 ORDER BY id`,
    [source],
  );
  return rows.map((row) => ({ reason: row.reason, record: row.record, createdAt: row.created_at }));
}
