import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** The lines of a text file, streamed. */
export async function* textLines(path: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) yield line;
}
