/** Why a fetch failed, as a machine code; the message says it in one line for a person. */
export type FetchFailureCode = 'timeout' | 'too_large' | 'http_status' | 'wrong_format' | 'truncated' | 'network';

/**
 * Every failure of the polite client (gateway/ingest/http/polite-client.ts) is one of these: a run that gets one
 * fails with `message` as its reason and leaves no file behind.
 */
export class FetchFailure extends Error {
  override readonly name = 'FetchFailure';
  readonly code: FetchFailureCode;
  /** The URL asked for (a redirect's target is named in the message). */
  readonly url: string;
  /** The status of the answer that failed, when one came (a 200 whose body was cut has 200). */
  readonly httpStatus?: number;

  constructor(code: FetchFailureCode, message: string, url: string, httpStatus?: number) {
    super(message);
    this.code = code;
    this.url = url;
    if (httpStatus !== undefined) this.httpStatus = httpStatus;
  }
}

export const timeoutReason = (timeoutMs: number) => `no complete answer within ${timeoutMs} ms`;
