import { createWriteStream, statSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { basename } from 'node:path';
import type { Database } from '../../../subgraphs/platform/database.ts';
import { RECORD_TYPES, recordTypeNamed } from '../../../subgraphs/data-loading.ts';
import type { RecordType } from '../../../subgraphs/data-loading.ts';
import { csvLine } from '../../../prisma/seed/copy.ts';
import type { Value } from '../../../prisma/seed/copy.ts';
import { UsageError } from '../../../subgraphs/platform/process/command-tool.ts';
import { parseColumnsOption, resolveColumns } from './column-map.ts';
import type { ColumnSource } from './column-map.ts';
import { rowConverter } from './convert.ts';
import { loadFields, loadReferences } from './load-fields.ts';
import type { LoadField } from './load-fields.ts';
import { loadProgress } from './progress.ts';
import { formatOf, openRecordFile } from './read-records.ts';
import type { RecordFile } from './read-records.ts';
import { RecordStage } from './stage.ts';

export interface RecordLoadOptions {
  /** `--source`: where the records come from; keys are unique per type and source. */
  source: string;
  columns?: string;
  format?: string;
  dryRun?: boolean;
  deleteMissing?: boolean;
  /** Where rejected rows go (JSON lines); default `<first file>.rejects.jsonl`, written only when a row is rejected. */
  rejects?: string;
  /** A terminal to draw the progress bar on; without one, progress is plain lines. */
  terminal?: NodeJS.WriteStream;
  progress?: (message: string) => void;
}

/** The summary line: the counts the other importers print, and what only a records load has. */
export interface RecordLoadResult {
  source: 'records';
  type: string;
  record_source: string;
  dry_run: boolean;
  read: number;
  inserted: number;
  updated: number;
  /** Already stored with the same values: not written. */
  skipped: number;
  rejected: number;
  deleted: number;
  /** The rejects file, when a row was rejected. */
  rejects?: string;
}

/** The default `--source`: one name for every file a customer loads, so references between types resolve. */
export const DEFAULT_RECORD_SOURCE = 'default';

/**
 * `import -- records <type> <file...>`: streams the files into a staging table (COPY), checks every row as the
 * API would, then merges by (source, external_id) (docs/data-sources.md "Records").
 */
export async function loadRecords(
  db: Database,
  typeName: string,
  files: string[],
  options: RecordLoadOptions,
): Promise<RecordLoadResult> {
  const type = recordTypeNamed(typeName);
  if (!type) throw new UsageError(`no record type "${typeName}"; types: ${RECORD_TYPES.map((t) => t.name).join(', ')}`);
  if (files.length === 0) throw new UsageError(`records ${typeName}: no files given`);
  if (!/^[A-Za-z0-9][\w.-]{0,63}$/.test(options.source))
    throw new UsageError(`--source must be letters, digits, ".", "_" or "-" (at most 64), not "${options.source}"`);

  const fields = loadFields(type);
  const references = loadReferences(type, fields, RECORD_TYPES);
  const computed = new Set(type.load.computed ?? []);
  const fileFields = [
    'external_id',
    ...fields.filter((field) => !computed.has(field.name)).map((field) => field.name),
    ...references.map((reference) => reference.externalField),
    ...Object.keys(type.load.inputs ?? {}),
  ];
  const mapped = parseColumnsOption(options.columns, fileFields);

  const opened = await Promise.all(
    files.map(async (file) => {
      const format = formatOf(file, options.format);
      const records = await openRecordFile(file, format);
      const sources = resolveColumns(file, records.headings, fileFields, mapped);
      checkColumns(type, file, sources, references, records.headings !== undefined);
      return { file, records, sources };
    }),
  );
  const sources = opened[0]!.sources;
  for (const other of opened.slice(1)) {
    if ([...other.sources.keys()].sort().join() !== [...sources.keys()].sort().join())
      throw new UsageError(`${other.file} fills other fields than ${files[0]}: load them one at a time`);
  }
  const written = writtenFields(type, fields, sources);
  const stage = new RecordStage(db.sql, type, written, fields, references, options.source);
  const rejects = new RejectsFile(options.rejects ?? `${files[0]}.rejects.jsonl`);
  const say = options.progress ?? (() => undefined);
  const totalBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const progress = loadProgress(`${type.name}`, totalBytes, options.terminal, say);
  const result: RecordLoadResult = {
    source: 'records',
    type: type.name,
    record_source: options.source,
    dry_run: options.dryRun ?? false,
    read: 0,
    inserted: 0,
    updated: 0,
    skipped: 0,
    rejected: 0,
    deleted: 0,
  };
  try {
    await stage.create();
    let seq = 0;
    let bytesBefore = 0;
    for (const [index, { file, records, sources: fileSources }] of opened.entries()) {
      const convert = rowConverter(type, fields, references, fileSources);
      const lines = stagedLines(records, stage, written, convert, index, () => seq++, {
        onRow(bytes) {
          result.read += 1;
          progress.read(bytesBefore + bytes, result.read);
        },
        async onReject(line, reason, kept) {
          result.rejected += 1;
          await rejects.add({ file: basename(file), line, reason, ...kept });
        },
      });
      await db.sql.copy(stage.table, stage.columns, lines);
      bytesBefore += statSync(file).size;
    }
    progress.note(`${type.name}: ${result.read} rows read, ${result.rejected} rejected; checking keys and references`);
    for (const staged of await stage.check(files.map((file) => basename(file)))) {
      result.rejected += 1;
      await rejects.add(staged);
    }
    const { unchanged, ...counts } = await stage.classify(options.deleteMissing ?? false);
    Object.assign(result, counts, { skipped: unchanged });
    if (!result.dry_run) {
      await stage.merge(seq, (done) => progress.note(`${type.name}: merged ${done} of ${seq} rows`));
      if (options.deleteMissing) await stage.deleteMissing();
      for (const statement of type.load.afterLoad ?? []) await db.sql.query(statement, [options.source]);
    }
  } finally {
    progress.stop();
    await stage.drop();
    await rejects.close();
  }
  if (rejects.path && rejects.count) result.rejects = rejects.path;
  return result;
}

/** The file must give what the type needs; a CSV's headings show that before any row is read. */
function checkColumns(
  type: RecordType,
  file: string,
  sources: Map<string, ColumnSource>,
  references: ReturnType<typeof loadReferences>,
  hasHeadings: boolean,
): void {
  if (!hasHeadings) return;
  const missing = type.load.required.filter((field) => !sources.has(field));
  for (const reference of references) {
    if (reference.field.notNull && !sources.has(reference.field.name) && !sources.has(reference.externalField))
      missing.push(`${reference.field.name} (or ${reference.externalField})`);
  }
  if (missing.length)
    throw new UsageError(
      `${file}: no column for ${missing.join(', ')}; name the file's columns with --columns field=Heading`,
    );
}

/** The record columns a load writes: the fields the file fills, fields derived from them, and references. */
function writtenFields(type: RecordType, fields: LoadField[], sources: Map<string, ColumnSource>): LoadField[] {
  const derived = Object.entries(type.load.derive ?? {})
    .filter(([name, rule]) => !sources.has(name) && rule.from.every((input) => sources.has(input)))
    .map(([name]) => name);
  const referenced = loadReferences(type, fields, RECORD_TYPES)
    .filter((reference) => sources.has(reference.field.name) || sources.has(reference.externalField))
    .map((reference) => reference.field.name);
  const names = new Set([...sources.keys(), ...derived, ...referenced]);
  return fields.filter((field) => names.has(field.name));
}

interface RowEvents {
  onRow(bytes: number): void;
  /** The record as read, or, for a line that could not be read, a bounded excerpt of it. */
  onReject(line: number, reason: string, kept: { record?: unknown; excerpt?: string }): Promise<void>;
}

/** The staging table's CSV for one file, in chunks of a thousand rows, as COPY reads it. */
async function* stagedLines(
  records: RecordFile,
  stage: RecordStage,
  written: LoadField[],
  convert: ReturnType<typeof rowConverter>,
  file: number,
  nextSeq: () => number,
  events: RowEvents,
): AsyncGenerator<string> {
  const references = stage.referenceFields;
  let chunk = '';
  let rows = 0;
  for await (const row of records.rows) {
    events.onRow(row.bytes);
    const converted =
      'values' in row ? convert(row.values) : { problems: [`row: ${row.unreadable}`], externalId: undefined };
    const seq = nextSeq();
    let values: Value[];
    if ('problems' in converted) {
      await events.onReject(
        row.line,
        converted.problems.join('; '),
        'values' in row ? { record: row.values } : { excerpt: row.excerpt },
      );
      values = [
        seq,
        file,
        row.line,
        converted.externalId ?? null,
        true,
        ...references.map(() => null),
        ...written.map(() => null),
      ];
    } else {
      values = [
        seq,
        file,
        row.line,
        converted.externalId,
        false,
        ...references.map((reference) => (converted.references.get(reference.externalField) as string) ?? null),
        ...written.map((field) =>
          stagedValue(field, converted.values.get(field.name) ?? converted.references.get(field.name)),
        ),
      ];
    }
    chunk += csvLine(values);
    if (++rows === 1000) {
      yield chunk;
      chunk = '';
      rows = 0;
    }
  }
  if (rows > 0) yield chunk;
}

function stagedValue(field: LoadField, value: unknown): Value {
  if (value === undefined || value === null) return null;
  if (field.list) return value as string[];
  return value as Value;
}

/** Rejected rows as JSON lines (`{file, line, reason, record}` or `excerpt`); the file is created at the first one. */
class RejectsFile {
  private stream: WriteStream | undefined;
  count = 0;

  constructor(readonly path: string) {}

  async add(entry: { file: string; line: number; reason: string; record?: unknown; excerpt?: string }): Promise<void> {
    this.count += 1;
    this.stream ??= createWriteStream(this.path);
    if (!this.stream.write(`${JSON.stringify(entry)}\n`))
      await new Promise<void>((resolve) => this.stream!.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    if (!this.stream) return;
    const stream = this.stream;
    await new Promise<void>((resolve, reject) =>
      stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
