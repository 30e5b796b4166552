import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { UsageError } from '../../../subgraphs/platform/process/command-tool.ts';
import { boundedLines } from '../read/bounded-lines.ts';
import { CSV_OPTIONS } from '../read/csv.ts';
import { fold } from '../read/csv-header.ts';

export type FileFormat = 'csv' | 'jsonl';

/**
 * One row of a file: its line number (for rejects) and its values by heading, or the reason it cannot be read
 * (with a bounded excerpt of a line too long or not UTF-8); `bytes` is how far into the file it ends (for progress).
 */
export type FileRow = { line: number; bytes: number } & (
  { values: Record<string, unknown> } | { unreadable: string; excerpt?: string }
);

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

/**
 * The header row first (as a string array), then each row by heading with the line it ends on. csv-parse decodes
 * invalid UTF-8 as U+FFFD, so a row holding one is unreadable: its text is not what the file meant.
 */
async function* csvRecords(path: string): AsyncGenerator<FileRow | string[]> {
  const file = createReadStream(path);
  const parser = file.pipe(parse({ ...CSV_OPTIONS, info: true }));
  file.on('error', (error) => parser.destroy(error));
  let headings: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number; bytes: number };
  }>) {
    if (!headings) {
      headings = distinctHeadings(path, record, info.lines);
      yield headings;
      continue;
    }
    if (record.some((value) => value.includes(REPLACEMENT))) {
      yield { line: info.lines, bytes: info.bytes, unreadable: NOT_UTF8 };
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

const REPLACEMENT = '\uFFFD';
const NOT_UTF8 = 'is not valid UTF-8 (it holds U+FFFD, the mark of bytes that were not)';

/**
 * The headings, refused when two are one (as compared: case, spaces and underscores ignored), since a row would
 * keep only the last of their columns and the file's author could not tell which.
 */
function distinctHeadings(path: string, headings: string[], line: number): string[] {
  if (headings.some((heading) => heading.includes(REPLACEMENT)))
    throw new UsageError(`${path} line ${line}: the header ${NOT_UTF8}`);
  const seen = new Map<string, number>();
  for (const [index, heading] of headings.entries()) {
    // Unnamed columns (a trailing comma) fill no field.
    if (!heading) continue;
    const first = seen.get(fold(heading));
    if (first !== undefined)
      throw new UsageError(
        `${path} line ${line}: the heading "${heading}" appears twice (columns ${first + 1} and ${index + 1}); rename one`,
      );
    seen.set(fold(heading), index);
  }
  return headings;
}

/** Every non-blank line as an object; a line over the record cap or not UTF-8 is unreadable, with an excerpt. */
async function* jsonLineRecords(path: string): AsyncGenerator<FileRow> {
  for await (const read of boundedLines(path)) {
    const { line, bytes } = read;
    if ('problem' in read) {
      yield { line, bytes, unreadable: read.problem, excerpt: read.excerpt };
      continue;
    }
    const text = read.text;
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
