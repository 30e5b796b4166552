import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { BODY_END_BYTES } from './body-check.ts';

/** A body written to a temporary file in the store, not yet under its content's name. */
export interface StagedBody {
  tempPath: string;
  sha256: string;
  bytes: number;
  /** The first and last kilobyte, for the format checks. */
  head: Buffer;
  tail: Buffer;
}

/** Why a body could not be staged, and how many bytes had come: the caller turns it into a `FetchFailure`. */
export class StageFailure extends Error {
  constructor(
    readonly reason: 'too_large' | 'stream_error',
    readonly bytes: number,
    override readonly cause?: unknown,
  ) {
    super(
      reason === 'too_large'
        ? `the body passed the cap after ${bytes} bytes`
        : `the body stream failed after ${bytes} bytes`,
    );
  }
}

/**
 * Streams a body into `<storeDir>/.partial-<uuid>` chunk by chunk, hashing and counting as it goes, and stops at
 * the first byte past `maxBytes` (the connection is cancelled, the rest never read). Memory holds one chunk and
 * two kilobytes whatever the size. On any failure the temporary file is removed and a `StageFailure` thrown.
 */
export async function stageBody(
  body: ReadableStream<Uint8Array>,
  storeDir: string,
  maxBytes: number,
): Promise<StagedBody> {
  await mkdir(storeDir, { recursive: true });
  const tempPath = join(storeDir, `.partial-${randomUUID()}`);
  const hash = createHash('sha256');
  let bytes = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new StageFailure('too_large', bytes));
      hash.update(chunk);
      if (head.length < BODY_END_BYTES) head = Buffer.concat([head, chunk.subarray(0, BODY_END_BYTES - head.length)]);
      // Copied, so that the kept tail does not hold the whole chunk's memory.
      tail = Buffer.from(
        Buffer.concat([tail.subarray(-BODY_END_BYTES), chunk.subarray(-BODY_END_BYTES)]).subarray(-BODY_END_BYTES),
      );
      done(null, chunk);
    },
  });
  const source = Readable.fromWeb(body);
  const file = createWriteStream(tempPath, { flags: 'wx' });
  // pipeline() passes the first error to every stream, so the first stream to report one is where it began.
  let failedFirst: 'source' | 'measure' | 'disk' | undefined;
  source.once('error', () => (failedFirst ??= 'source'));
  measure.once('error', () => (failedFirst ??= 'measure'));
  file.once('error', () => (failedFirst ??= 'disk'));
  try {
    await pipeline(source, measure, file);
  } catch (error) {
    await rm(tempPath, { force: true });
    // A full or unwritable disk is this machine's failure, not the source's: thrown as it is.
    if (failedFirst === 'disk') throw error;
    throw error instanceof StageFailure ? error : new StageFailure('stream_error', bytes, error);
  }
  return { tempPath, sha256: hash.digest('hex'), bytes, head, tail };
}

/** Gives a staged body its content address, `<storeDir>/<sha256>.<ext>` (the same bytes always land on one name). */
export async function keepBody(staged: StagedBody, storeDir: string, extension: string): Promise<string> {
  const path = join(storeDir, `${staged.sha256}.${extension}`);
  await rename(staged.tempPath, path);
  return path;
}

/** Drops a staged body that failed its checks. */
export const discardBody = (staged: StagedBody) => rm(staged.tempPath, { force: true });
