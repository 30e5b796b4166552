import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { MAX_RECORD_BYTES } from './bounded-lines.ts';

/**
 * How every CSV is parsed: a BOM dropped, ragged rows kept (the reader judges them), blank lines skipped, cells
 * trimmed, and a row past the record cap (a runaway quote) stopping the file with csv-parse's error naming the line.
 */
export const CSV_OPTIONS = {
  bom: true,
  relax_column_count: true,
  skip_empty_lines: true,
  trim: true,
  max_record_size: MAX_RECORD_BYTES,
} as const;

/** CSV rows as arrays of strings, streamed; the header is the first row. */
export async function* csvRows(path: string): AsyncGenerator<string[]> {
  const file = createReadStream(path);
  const parser = file.pipe(parse(CSV_OPTIONS));
  // A read error (a missing file) must end the iteration with that error, not crash the process running it.
  file.on('error', (error) => parser.destroy(error));
  for await (const row of parser as AsyncIterable<string[]>) yield row;
}
