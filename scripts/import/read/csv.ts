import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

/** CSV rows as arrays of strings, streamed; the header is the first row. */
export async function* csvRows(path: string): AsyncGenerator<string[]> {
  const file = createReadStream(path);
  const parser = file.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }));
  // A read error (a missing file) must end the iteration with that error, not crash the process running it.
  file.on('error', (error) => parser.destroy(error));
  for await (const row of parser as AsyncIterable<string[]>) yield row;
}
