import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of traffic before measuring, thrown away (JIT, plan caches, pools). */
  warmup: number;
  /**
   * `Authorization` values sent in turn, one per request (over `headers`): a pool of accounts for the fields
   * limited per account (search: 30 a minute), so the bench measures the route rather than its 429.
   */
  authorizations?: readonly string[];
  /** Called after the warm-up, just before the measured traffic (the scale-out lines start their CPU window). */
  beforeMeasuring?: () => Promise<void>;
}

/** Round robin over the pool, continued across lines so that no account takes more than its share a minute. */
let nextAuthorization = 0;
function rotating(authorizations: readonly string[] | undefined) {
  if (!authorizations?.length) return undefined;
  const setupRequest = (request: { headers?: Record<string, string> }) => {
    const authorization = authorizations[nextAuthorization++ % authorizations.length]!;
    return { ...request, headers: { ...request.headers, authorization } };
  };
  return [{ setupRequest }];
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Responses that were not 2xx, connection errors and timeouts: a scenario with any is not a number. */
  failures: number;
  /** Requests sent during the warm-up (with `requests`, all the traffic the target saw). */
  warmupRequests?: number;
}

/** Runs autocannon once, keeping each response time so p95 is exact (autocannon reports p90 and p97.5). */
async function measure(options: LoadOptions, duration: number): Promise<LoadResult> {
  const times: number[] = [];
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    requests: rotating(options.authorizations),
    duration,
    timeout: 30,
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await instance;
  times.sort((a, b) => a - b);
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
  return {
    requests: times.length,
    rps: round(times.length / result.duration),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    mean: round(times.reduce((sum, time) => sum + time, 0) / Math.max(1, times.length)),
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const warmup = options.warmup > 0 ? await measure(options, options.warmup) : undefined;
  await options.beforeMeasuring?.();
  return { ...(await measure(options, options.duration)), warmupRequests: warmup?.requests ?? 0 };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
