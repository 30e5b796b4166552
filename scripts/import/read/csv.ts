import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { MAX_RECORD_BYTES } from './bounded-lines.ts';

/** CSV rows as arrays of strings, streamed; the header is the first row. Each row is at most MAX_RECORD_BYTES. */
export async function* csvRows(path: string): AsyncGenerator<string[]> {
  const file = createReadStream(path);
  // A row past the record cap (a runaway quote) stops the file with csv-parse's error naming the line.
  const parser = file.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  // A read error (a missing file) must end the iteration with that error, not crash the process running it.
  file.on('error', (error) => parser.destroy(error));
  for await (const row of parser as AsyncIterable<string[]>) yield row;
}
