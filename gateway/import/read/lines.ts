import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** The lines of a text file, streamed. */
export async function* textLines(path: string): AsyncGenerator<string> {
  const file = createReadStream(path);
  const lines = createInterface({ input: file, crlfDelay: Infinity });
  // A read error (a missing file) must end the iteration with that error, not crash the process running it.
  let failure: Error | undefined;
  file.on('error', (error) => {
    failure = error;
    lines.close();
  });
  for await (const line of lines) yield line;
  if (failure) throw failure;
}
