import { createReadStream } from 'node:fs';
import type { Duplex } from 'node:stream';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { streamObject } from 'stream-json/streamers/stream-object.js';

/**
 * The elements of a top-level JSON array, one at a time: the file is tokenised as it is read, so memory holds
 * one element, whatever the file's size.
 */
export async function* jsonArrayItems(path: string): AsyncGenerator<unknown> {
  for await (const item of fromFile(path, streamArray.withParserAsStream())) yield (item as { value: unknown }).value;
}

/** The values of a top-level JSON object (`{"0": {...}, "1": {...}}`), one at a time, with their keys. */
export async function* jsonObjectEntries(path: string): AsyncGenerator<{ key: string; value: unknown }> {
  for await (const entry of fromFile(path, streamObject.withParserAsStream()))
    yield entry as { key: string; value: unknown };
}

function fromFile(path: string, parser: Duplex): AsyncIterable<unknown> {
  const file = createReadStream(path);
  // A read error (a missing file) must end the iteration with that error, not hang it.
  file.on('error', (error) => parser.destroy(error));
  return file.pipe(parser);
}
