import { createReadStream } from 'node:fs';

/** The most bytes one record (a CSV row, a JSON line) may take: a longer one is refused, never held whole. */
export const MAX_RECORD_BYTES = 1 << 20;
/** How much of a refused line a rejects file keeps, so a 30 MB line costs the rejects file 200 characters. */
export const EXCERPT_CHARS = 200;

/** One line of a file, numbered from 1, with the byte offset it ends at; or why it cannot be read, with an excerpt. */
export type BoundedLine = { line: number; bytes: number } & ({ text: string } | { problem: string; excerpt: string });

const LF = 0x0a;
const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/**
 * The lines of a file read as bytes, so a line is checked before it becomes a string: one over `maxBytes` is
 * skipped to its end (memory holds `maxBytes` at most) and one that is not UTF-8 is reported, not turned into U+FFFD.
 */
export async function* boundedLines(path: string, maxBytes = MAX_RECORD_BYTES): AsyncGenerator<BoundedLine> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let length = 0;
  let line = 0;
  let bytes = 0;
  const take = (part: Buffer) => {
    length += part.length;
    if (heldBytes > maxBytes) return;
    held.push(part);
    heldBytes += part.length;
  };
  const finish = (): BoundedLine => {
    line += 1;
    bytes += length + 1;
    const raw = Buffer.concat(held);
    const size = length;
    held = [];
    heldBytes = 0;
    length = 0;
    const excerpt = () => lenient.decode(raw.subarray(0, EXCERPT_CHARS * 4)).slice(0, EXCERPT_CHARS);
    if (size > maxBytes)
      return {
        line,
        bytes,
        problem: `is ${size} bytes, over the ${maxBytes}-byte limit of a record`,
        excerpt: excerpt(),
      };
    try {
      return { line, bytes, text: strict.decode(raw).replace(/\r$/, '') };
    } catch {
      return { line, bytes, problem: 'is not valid UTF-8', excerpt: excerpt() };
    }
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
      take(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    take(chunk.subarray(start));
  }
  if (length > 0) yield finish();
}
