import { randomBytes } from 'node:crypto';
import type { SqlClient } from '../../../subgraphs/platform/database.ts';
import type { RecordType } from '../../../subgraphs/data-loading.ts';
import { emptyValue } from './load-fields.ts';
import type { LoadField, LoadReference } from './load-fields.ts';

/** What a load did or, on a dry run, would do. */
export interface MergeCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

/** A row refused after staging (a repeated key, a reference to nothing), by file and line. */
export interface StagedReject {
  file: string;
  line: number;
  reason: string;
}

/** Rows merged per statement: short statements, and a progress line between them. */
const MERGE_ROWS = 50_000;

/**
 * The staging table of one load: an unlogged copy of the record table's columns (the same types) plus the row's
 * place (`seq` across the load's files, and its file and line), its key, and the references still to resolve.
 * Rows arrive by COPY; everything after is set-based SQL, so a load of any size holds no more than a chunk of rows
 * in memory. Rejected rows are staged too (key and line only): `--delete-missing` must not delete a record whose
 * row was merely bad. A load killed midway leaves its `import_stage_<hex>` table behind, to drop by hand.
 */
export class RecordStage {
  readonly table = `import_stage_${randomBytes(6).toString('hex')}`;

  /**
   * `written`: the record columns this load writes (the file's fields, derived fields, references given);
   * `all`: every column of the type, for what a new record gets in the others.
   */
  constructor(
    private readonly sql: SqlClient,
    private readonly type: RecordType,
    private readonly written: LoadField[],
    private readonly all: LoadField[],
    private readonly references: LoadReference[],
    private readonly source: string,
  ) {}

  get referenceFields(): readonly LoadReference[] {
    return this.references;
  }

  /** Staging columns in COPY order. */
  get columns(): string[] {
    return [
      'seq',
      'file',
      'line',
      'external_id',
      'rejected',
      ...this.references.map((reference) => externalColumn(reference)),
      ...this.written.map((field) => field.column),
    ];
  }

  async create(): Promise<void> {
    const columns = this.written.map((field) => quote(field.column)).join(', ');
    await this.sql.query(
      `CREATE UNLOGGED TABLE ${this.table} AS SELECT ${columns} FROM ${this.type.table} WITH NO DATA`,
    );
    await this.sql.query(
      `ALTER TABLE ${this.table} ADD COLUMN seq integer, ADD COLUMN file integer, ADD COLUMN line integer,
         ADD COLUMN external_id text, ADD COLUMN rejected boolean,
         ADD COLUMN reason text${this.references.map((reference) => `, ADD COLUMN ${externalColumn(reference)} text`).join('')}`,
    );
  }

  /**
   * After COPY: indexes for the joins, then repeated keys and unresolved references become rejects (the first
   * row with a key stands). `files` names the files by their index.
   */
  async check(files: readonly string[]): Promise<StagedReject[]> {
    await this.sql.query(`CREATE INDEX ON ${this.table} (external_id)`);
    await this.sql.query(`CREATE INDEX ON ${this.table} (seq)`);
    await this.sql.query(`ANALYZE ${this.table}`);
    await this.sql.query(
      `UPDATE ${this.table} s SET rejected = true,
              reason = 'external_id: repeats line ' || first.line || ' of ' || ($1::text[])[first.file + 1]
         FROM (SELECT DISTINCT ON (external_id) external_id, seq, file, line FROM ${this.table}
                WHERE NOT rejected ORDER BY external_id, seq) first
        WHERE s.external_id = first.external_id AND s.seq > first.seq AND NOT s.rejected`,
      [files],
    );
    for (const reference of this.references) {
      const column = quote(reference.field.column);
      const external = externalColumn(reference);
      const target = reference.target;
      await this.sql.query(
        `UPDATE ${this.table} s SET ${column} = r.id FROM ${target.table} r
          WHERE s.${external} IS NOT NULL AND s.${column} IS NULL AND NOT s.rejected
            AND r.source = $1 AND r.external_id = s.${external}`,
        [this.source],
      );
      await this.sql.query(
        `UPDATE ${this.table} s SET rejected = true,
                reason = '${reference.externalField}: no ${target.kind} with this external_id in source ' || $1
          WHERE s.${external} IS NOT NULL AND s.${column} IS NULL AND NOT s.rejected`,
        [this.source],
      );
      await this.sql.query(
        `UPDATE ${this.table} s SET rejected = true,
                reason = '${reference.field.name}: no ${target.kind} ${target.ids.prefix}_' || s.${column}
          WHERE s.${column} IS NOT NULL AND NOT s.rejected
            AND NOT EXISTS (SELECT 1 FROM ${target.table} r WHERE r.id = s.${column})`,
      );
    }
    const refused = await this.sql.query<{ file: number; line: number; reason: string }>(
      `SELECT file, line, reason FROM ${this.table} WHERE reason IS NOT NULL ORDER BY seq`,
    );
    return refused.map((row) => ({ ...row, file: files[row.file]! }));
  }

  /** Counts what merging would do, without writing: inserted, updated, unchanged and (with deleteMissing) deleted. */
  async classify(deleteMissing: boolean): Promise<MergeCounts> {
    const [counts] = await this.sql.query<{ inserted: number; updated: number; unchanged: number }>(
      `SELECT count(*) FILTER (WHERE t.id IS NULL)::int AS inserted,
              count(*) FILTER (WHERE t.id IS NOT NULL AND ${this.differs('s')})::int AS updated,
              count(*) FILTER (WHERE t.id IS NOT NULL AND NOT ${this.differs('s')})::int AS unchanged
         FROM ${this.table} s
         LEFT JOIN ${this.type.table} t ON t.source = $1 AND t.external_id = s.external_id
        WHERE NOT s.rejected`,
      [this.source],
    );
    const [missing] = deleteMissing
      ? await this.sql.query<{ deleted: number }>(
          `SELECT count(*)::int AS deleted FROM ${this.type.table} t
            WHERE t.source = $1 AND NOT EXISTS (SELECT 1 FROM ${this.table} s WHERE s.external_id = t.external_id)`,
          [this.source],
        )
      : [{ deleted: 0 }];
    return { ...counts!, deleted: missing!.deleted };
  }

  /**
   * Upserts the staged rows by (source, external_id) in slices of lines: new keys insert, changed rows update in
   * place (the record keeps its id), unchanged rows are not written at all.
   */
  async merge(rows: number, progress: (merged: number) => void): Promise<void> {
    // NOT NULL columns the file does not fill get their type's empty value; computed ones are then set by afterLoad.
    const unwritten = this.all.filter(
      (field) => field.notNull && !this.written.some((other) => other.column === field.column),
    );
    const columns = ['source', 'external_id', ...this.written.map((field) => quote(field.column))];
    const values = ['$1', 's.external_id', ...this.written.map((field) => this.value(field, 's'))];
    const sets = this.written.map((field) => `${quote(field.column)} = EXCLUDED.${quote(field.column)}`);
    for (let from = 0; from < rows; from += MERGE_ROWS) {
      await this.sql.query(
        `INSERT INTO ${this.type.table} AS t (${[...columns, ...unwritten.map((field) => quote(field.column))].join(', ')})
         SELECT ${[...values, ...unwritten.map(emptyValue)].join(', ')}
           FROM ${this.table} s
          WHERE NOT s.rejected AND s.seq >= $2 AND s.seq < $3
         ON CONFLICT (source, external_id) DO UPDATE SET ${sets.join(', ')}
          WHERE ${this.differs('EXCLUDED')}`,
        [this.source, from, from + MERGE_ROWS],
      );
      progress(Math.min(from + MERGE_ROWS, rows));
    }
  }

  async deleteMissing(): Promise<void> {
    await this.sql.query(
      `DELETE FROM ${this.type.table} t
        WHERE t.source = $1 AND NOT EXISTS (SELECT 1 FROM ${this.table} s WHERE s.external_id = t.external_id)`,
      [this.source],
    );
  }

  async drop(): Promise<void> {
    await this.sql.query(`DROP TABLE IF EXISTS ${this.table}`);
  }

  /** The staged value as stored: an empty NOT NULL field holds its type's empty value. */
  private value(field: LoadField, alias: string): string {
    const staged = `${alias}.${quote(field.column)}`;
    return field.notNull ? `COALESCE(${staged}, ${emptyValue(field)})` : staged;
  }

  /** Whether the stored record `t` differs from the incoming row in any written column. */
  private differs(alias: 's' | 'EXCLUDED'): string {
    const stored = this.written.map((field) => `t.${quote(field.column)}`);
    const incoming = this.written.map((field) =>
      alias === 's' ? this.value(field, 's') : `EXCLUDED.${quote(field.column)}`,
    );
    return `(${[...stored, 'NULL'].join(', ')}) IS DISTINCT FROM (${[...incoming, 'NULL'].join(', ')})`;
  }
}

function externalColumn(reference: LoadReference): string {
  return quote(reference.externalField);
}

function quote(column: string): string {
  return `"${column}"`;
}
