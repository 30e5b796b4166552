import type { Logger } from 'pino';
import type { ExpectedFormat } from './body-check.ts';
import { FetchFailure, timeoutReason } from './fetch-failure.ts';
import type { FetchFailureCode } from './fetch-failure.ts';
import { createHostGates } from './host-gate.ts';
import { networkReason, receiveFile } from './receive-file.ts';
import { backoffMs, retryAfterMs, sleep } from './retry-wait.ts';

export { FetchFailure } from './fetch-failure.ts';
export type { FetchFailureCode } from './fetch-failure.ts';
export type { ExpectedFormat } from './body-check.ts';

/** What a previous fetch of the same URL answered, sent back so that an unchanged file costs a 304. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface FetchRequest {
  url: string;
  expect: ExpectedFormat;
  /** Sent as If-None-Match / If-Modified-Since. */
  previous?: Validators;
}

export type FetchOutcome =
  | { status: 'unchanged'; httpStatus: 304; url: string; attempts?: number }
  | {
      status: 'fetched';
      httpStatus: 200;
      url: string;
      /** Where the file came from when a redirect led elsewhere. */
      finalUrl?: string;
      path: string;
      sha256: string;
      bytes: number;
      validators: Validators;
      contentType?: string;
      /** Requests made, counting retries (1 when the first answered). */
      attempts?: number;
    };

export interface PoliteClientOptions {
  /** Sent on every request; SEC requires it to name the operator and a contact, e.g. 'data-graph ops@example.com'. */
  userAgent: string;
  /** Content-addressed downloads: `<storeDir>/<sha256 hex>.<ext>`. */
  storeDir: string;
  /** One request, headers and body, from its start; default 60 s. */
  timeoutMs?: number;
  /** Default 200 MB (decoded bytes: a small gzip that inflates past it is stopped too). */
  maxBytes?: number;
  /** Default 10, SEC's fair-access limit; shared by every request this client makes to one host. */
  requestsPerSecondPerHost?: number;
  /** Further attempts after a 429, a 503 or a network error; default 3. */
  retries?: number;
  /** Longest wait between attempts, Retry-After included; a server asking for more fails the fetch. Default 60 s. */
  maxRetryWaitMs?: number;
  /** First backoff wait when no Retry-After is given (doubled each time, with jitter); default 1 s. */
  backoffBaseMs?: number;
  /** Where retries are told; silent when absent. */
  logger?: Pick<Logger, 'warn'>;
}

export interface PoliteClient {
  fetchFile(request: FetchRequest): Promise<FetchOutcome>;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RETRY_STATUSES = new Set([429, 503]);
const ACCEPT: Record<ExpectedFormat, string> = {
  json: 'application/json',
  csv: 'text/csv',
  xml: 'application/xml, text/xml',
  yaml: 'application/yaml, text/yaml',
  text: 'text/plain',
};

/** An answer that asks to be tried again later (429, 503), or a connection that failed before any answer. */
interface RetryLater {
  retry: true;
  /** The host that answered (a redirect's target, maybe). */
  host: URL;
  failure: FetchFailure;
  retryAfterMs?: number;
}

/**
 * An HTTP client for fetching public source files politely (docs/data-sources.md "Fetching: the HTTP client"):
 * a rate per host, a User-Agent, conditional requests, bounded retries, and bodies streamed to content-addressed
 * files after checks that the body is what was expected. Every failure is a `FetchFailure`.
 */
export function createPoliteClient(options: PoliteClientOptions): PoliteClient {
  const settings = {
    timeoutMs: options.timeoutMs ?? 60_000,
    maxBytes: options.maxBytes ?? 200 * 1024 * 1024,
    retries: options.retries ?? 3,
    maxRetryWaitMs: options.maxRetryWaitMs ?? 60_000,
    backoffBaseMs: options.backoffBaseMs ?? 1000,
  };
  const gateOf = createHostGates(options.requestsPerSecondPerHost ?? 10);

  /** One attempt: follows up to five redirects, each hop through its host's gate, then reads the answer. */
  async function attempt(request: FetchRequest, start: URL): Promise<FetchOutcome | RetryLater> {
    const conditional = conditionalHeaders(request.previous);
    let url = start;
    for (let hop = 0; ; hop += 1) {
      await gateOf(url).turn();
      // The clock starts once the request may go: time queued behind the host's rate is not the server's.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, settings.timeoutMs);
      const at = url;
      const fail = (code: FetchFailureCode, reason: string, httpStatus?: number) =>
        new FetchFailure(
          code,
          hop ? `${reason} (at ${at.href}, after ${hop} redirects)` : reason,
          request.url,
          httpStatus,
        );
      try {
        let response: Response;
        try {
          response = await fetch(url, {
            redirect: 'manual',
            signal: controller.signal,
            headers: {
              'user-agent': options.userAgent,
              accept: `${ACCEPT[request.expect]}, */*;q=0.1`,
              'accept-encoding': 'gzip, deflate',
              ...conditional,
            },
          });
        } catch (error) {
          if (timedOut) throw fail('timeout', timeoutReason(settings.timeoutMs));
          return { retry: true, host: url, failure: fail('network', `no answer: ${networkReason(error)}`) };
        }
        const { status } = response;
        if (status === 200) {
          const file = await receiveFile(response, {
            expect: request.expect,
            storeDir: options.storeDir,
            maxBytes: settings.maxBytes,
            timeoutMs: settings.timeoutMs,
            timedOut: () => timedOut,
            abort: () => controller.abort(),
            fail: (code, reason) => fail(code, reason, status),
          });
          const contentType = response.headers.get('content-type');
          return {
            status: 'fetched',
            httpStatus: 200,
            url: request.url,
            ...(hop ? { finalUrl: url.href } : {}),
            ...file,
            validators: validatorsOf(response.headers),
            ...(contentType ? { contentType } : {}),
          };
        }
        // Every other answer is read no further.
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        if (REDIRECT_STATUSES.has(status) && location) {
          if (hop === MAX_REDIRECTS) throw fail('http_status', `more than ${MAX_REDIRECTS} redirects`, status);
          url = new URL(location, url);
          if (!/^https?:$/.test(url.protocol))
            throw fail('http_status', `a redirect to ${url.protocol} is not followed`, status);
          continue;
        }
        if (status === 304 && Object.keys(conditional).length)
          return { status: 'unchanged', httpStatus: 304, url: request.url };
        if (RETRY_STATUSES.has(status)) {
          const wait = retryAfterMs(response.headers.get('retry-after'), new Date());
          return {
            retry: true,
            host: url,
            failure: fail('http_status', statusLine(response), status),
            retryAfterMs: wait,
          };
        }
        throw fail(
          'http_status',
          status === 304 ? 'HTTP 304 to a request that was not conditional' : statusLine(response),
          status,
        );
      } finally {
        clearTimeout(timer);
      }
    }
  }

  return {
    async fetchFile(request) {
      let start: URL;
      try {
        start = new URL(request.url);
      } catch {
        throw new FetchFailure('network', `not a URL: ${JSON.stringify(request.url)}`, request.url);
      }
      if (!/^https?:$/.test(start.protocol))
        throw new FetchFailure('network', `only http and https URLs are fetched, not ${start.protocol}`, request.url);
      for (let attempts = 1; ; attempts += 1) {
        const result = await attempt(request, start);
        if (!('retry' in result)) return { ...result, attempts };
        const { failure } = result;
        const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
        if (result.retryAfterMs !== undefined && result.retryAfterMs > settings.maxRetryWaitMs)
          throw new FetchFailure(
            failure.code,
            `${failure.message}; the server asks to wait ${seconds(result.retryAfterMs)} (Retry-After), more than the ${seconds(settings.maxRetryWaitMs)} this client waits`,
            failure.url,
            failure.httpStatus,
          );
        if (attempts > settings.retries)
          throw new FetchFailure(failure.code, `${failure.message}, after ${tries}`, failure.url, failure.httpStatus);
        const wait = result.retryAfterMs ?? backoffMs(attempts, settings.backoffBaseMs, settings.maxRetryWaitMs);
        // A host that says when to come back is not asked again before then, by any request of this client.
        if (result.retryAfterMs !== undefined) gateOf(result.host).pauseFor(wait);
        options.logger?.warn(
          { url: request.url, attempt: attempts, waitMs: wait, reason: failure.message },
          'fetch retried',
        );
        await sleep(wait);
      }
    },
  };
}

function conditionalHeaders(previous: Validators | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
  return headers;
}

function validatorsOf(headers: Headers): Validators {
  const etag = headers.get('etag');
  const lastModified = headers.get('last-modified');
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

const statusLine = (response: Response) =>
  `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
