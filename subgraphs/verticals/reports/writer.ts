import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { csvFileLine } from '../../platform/csv-file.ts';

/**
 * Writes a report file record by record. Each write waits when the stream's buffer is full, so memory stays
 * flat however many rows pass; the file appears under its final name only when complete (a partial file of a
 * worker that died is overwritten by the retry).
 */
export interface ReportFileWriter {
  write(record: Record<string, unknown>): Promise<void>;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

export async function openReportFile(
  path: string,
  format: 'csv' | 'json',
  columns: readonly string[],
): Promise<ReportFileWriter> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  const stream = createWriteStream(partial);
  // A write error (disk full) fails the next write; an abort's own error is expected and dropped.
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure ??= error;
  });
  let first = true;
  const put = async (text: string) => {
    if (failure) throw failure;
    if (!stream.write(text)) await once(stream, 'drain');
  };
  await put(format === 'csv' ? csvFileLine(columns) : '[');
  return {
    async write(record) {
      if (format === 'csv') await put(csvFileLine(columns.map((column) => record[column])));
      else await put(`${first ? '\n' : ',\n'}${JSON.stringify(record)}`);
      first = false;
    },
    async finish() {
      if (format === 'json') await put(first ? ']\n' : '\n]\n');
      stream.end();
      await once(stream, 'finish');
      if (failure) throw failure;
      await rename(partial, path);
    },
    async abort() {
      stream.destroy();
      await rm(partial, { force: true });
    },
  };
}
