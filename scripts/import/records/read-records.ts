import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { textLines } from '../read/lines.ts';

export type FileFormat = 'csv' | 'jsonl';

/**
 * One row of a file: its line number (for rejects) and its values by heading, or the reason it cannot be read;
 * `bytes` is how far into the file it ends (for progress).
 */
export type FileRow = { line: number; bytes: number } & ({ values: Record<string, unknown> } | { unreadable: string });

export interface RecordFile {
  /** Headings of a CSV file; undefined for JSON lines, whose objects name their own keys. */
  headings?: string[];
  rows: AsyncGenerator<FileRow>;
}

/** `--format`, else the file's extension: `.jsonl`/`.ndjson` are JSON lines, anything else CSV. */
export function formatOf(file: string, option: string | undefined): FileFormat {
  if (option === 'csv' || option === 'jsonl') return option;
  return /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'csv';
}

/** Opens a file of records and reads its headings; the rows stream, so memory holds one at a time. */
export async function openRecordFile(path: string, format: FileFormat): Promise<RecordFile> {
  if (format === 'jsonl') return { rows: jsonLineRecords(path) };
  const rows = csvRecords(path);
  const header = await rows.next();
  return { headings: header.done ? [] : (header.value as string[]), rows: rows as AsyncGenerator<FileRow> };
}

/** The header row first (as a string array), then each row by heading with the line it ends on. */
async function* csvRecords(path: string): AsyncGenerator<FileRow | string[]> {
  const file = createReadStream(path);
  const parser = file.pipe(
    // A row past 1 MB stops the load with csv-parse's error rather than growing memory without bound.
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: 1 << 20,
    }),
  );
  file.on('error', (error) => parser.destroy(error));
  let headings: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number; bytes: number };
  }>) {
    if (!headings) {
      headings = record;
      yield headings;
      continue;
    }
    if (record.length !== headings.length) {
      const unreadable = `has ${record.length} columns, the header ${headings.length}`;
      yield { line: info.lines, bytes: info.bytes, unreadable };
      continue;
    }
    const values = Object.fromEntries(headings.map((heading, i) => [heading, record[i]]));
    yield { line: info.lines, bytes: info.bytes, values };
  }
}

/** Every non-blank line as an object. */
async function* jsonLineRecords(path: string): AsyncGenerator<FileRow> {
  let line = 0;
  let bytes = 0;
  for await (const text of textLines(path)) {
    line += 1;
    bytes += Buffer.byteLength(text) + 1;
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    yield isObject
      ? { line, bytes, values: value as Record<string, unknown> }
      : { line, bytes, unreadable: 'is not a JSON object on one line' };
  }
}
