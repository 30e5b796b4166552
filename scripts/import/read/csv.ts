import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

/** CSV rows as arrays of strings, streamed; the header is the first row. */
export async function* csvRows(path: string): AsyncGenerator<string[]> {
  const parser = createReadStream(path).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }),
  );
  for await (const row of parser as AsyncIterable<string[]>) yield row;
}
