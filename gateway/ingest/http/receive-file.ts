import type { ReadableStream } from 'node:stream/web';
import { FORMAT_NAMES, checkBody, isHtmlContentType } from './body-check.ts';
import type { ExpectedFormat } from './body-check.ts';
import { timeoutReason } from './fetch-failure.ts';
import type { FetchFailure, FetchFailureCode } from './fetch-failure.ts';
import { StageFailure, discardBody, keepBody, stageBody } from './store-body.ts';

const EXTENSIONS: Record<ExpectedFormat, string> = { json: 'json', csv: 'csv', xml: 'xml', yaml: 'yaml', text: 'txt' };

export interface ReceivedFile {
  path: string;
  sha256: string;
  bytes: number;
}

export interface ReceiveContext {
  expect: ExpectedFormat;
  storeDir: string;
  maxBytes: number;
  /** Whether the request's clock ran out (the body stream then fails with an abort), and its length. */
  timedOut(): boolean;
  timeoutMs: number;
  /** Closes the connection (a body over the cap is not read to its end). */
  abort(): void;
  fail(code: FetchFailureCode, reason: string): FetchFailure;
}

/**
 * Turns a 200 into a checked, content-addressed file: refuses an HTML page and a body announced over the cap
 * before reading, streams the rest to disk, and keeps it only when it is whole and looks like what was expected.
 */
export async function receiveFile(response: Response, context: ReceiveContext): Promise<ReceivedFile> {
  const expected = FORMAT_NAMES[context.expect];
  const drop = () => response.body?.cancel().catch(() => undefined);
  const contentType = response.headers.get('content-type') ?? undefined;
  if (isHtmlContentType(contentType)) {
    await drop();
    throw context.fail('wrong_format', `an HTML page (${contentType}) where ${expected} was expected`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  // fetch decodes gzip and deflate, so an encoded body's length says nothing of the bytes that reach the file.
  const plainLength = Number.isFinite(declared) && !response.headers.get('content-encoding') ? declared : undefined;
  if (declared > context.maxBytes) {
    await drop();
    throw context.fail('too_large', `a body of ${declared} bytes, over the cap of ${context.maxBytes}`);
  }
  if (!response.body) throw context.fail('wrong_format', `an empty body where ${expected} was expected`);

  let staged;
  try {
    staged = await stageBody(response.body as ReadableStream<Uint8Array>, context.storeDir, context.maxBytes);
  } catch (error) {
    if (context.timedOut()) throw context.fail('timeout', timeoutReason(context.timeoutMs));
    // Not the source's fault (the store cannot be written): thrown as it is.
    if (!(error instanceof StageFailure)) throw error;
    if (error.reason === 'too_large') {
      context.abort();
      throw context.fail('too_large', `the body passed the cap of ${context.maxBytes} bytes and was cut off`);
    }
    const announced = plainLength === undefined ? '' : ` of the ${plainLength} announced`;
    throw context.fail(
      'truncated',
      `the body was cut off after ${error.bytes} bytes${announced} (${networkReason(error.cause)})`,
    );
  }
  const problem =
    plainLength !== undefined && staged.bytes < plainLength
      ? { code: 'truncated' as const, reason: `${staged.bytes} bytes of the ${plainLength} announced` }
      : checkBody(context.expect, staged.head, staged.tail, staged.bytes);
  if (problem) {
    await discardBody(staged);
    throw context.fail(problem.code, problem.reason);
  }
  const path = await keepBody(staged, context.storeDir, EXTENSIONS[context.expect]);
  return { path, sha256: staged.sha256, bytes: staged.bytes };
}

/** What a network error code means, in words that name no address. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  UND_ERR_SOCKET: 'other side closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the body stalled',
};

/**
 * fetch says "fetch failed" or "terminated"; the cause says what happened. The reason is shown on the public
 * /api/stats/sources, so an error with a code is told by its code: the messages name the address and port
 * ("connect ECONNREFUSED 10.0.0.5:443", undici's "attempted address: …").
 */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code} (${NETWORK_CODES[cause.code] ?? 'network error'})`;
  return cause?.message ?? (error as Error)?.message ?? String(error);
}
