import { runLoad } from './load.ts';
import type { LoadOptions, LoadResult } from './load.ts';

/** One measured line of the report. */
export interface Measurement {
  name: string;
  detail: string;
  /** `total` as the first response reported it (shows the filter's selectivity). */
  total?: number;
  result?: LoadResult;
  /** Federated lines: requests the subgraph servers received per gateway request (fetches, after deduplication). */
  subgraphFetchesPerRequest?: number;
  /** Why there is no number: the sanity request failed, or the load saw failures. */
  error?: string;
  /** Scale-out lines: CPU seconds per 1,000 measured requests, by group of processes (cpu-sample.ts). */
  cpuPerThousand?: Record<string, number>;
  /** Scale-out lines: share of the machine's cores busy while measured (every process, the bench's included). */
  machineBusy?: number;
  /** When the line was measured, if later than its scale's run (a partial run merged in: merge.ts). */
  measuredAt?: string;
}

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** See LoadOptions.authorizations (load.ts). */
  authorizations?: readonly string[];
  /** See LoadOptions.beforeMeasuring (load.ts). */
  beforeMeasuring?: () => Promise<void>;
}

export type LoadSettings = Pick<LoadOptions, 'connections' | 'duration' | 'warmup'>;

/** Reads `total` wherever the envelopes keep it: REST lists, signal lists, GraphQL pages, the raw layers. */
function totalOf(body: unknown): number | undefined {
  const seen = [body];
  while (seen.length > 0) {
    const value = seen.pop();
    if (!value || typeof value !== 'object') continue;
    const record = value as Record<string, unknown>;
    if (typeof record.total === 'number') return record.total;
    seen.push(...Object.values(record).filter((child) => child && typeof child === 'object' && !Array.isArray(child)));
  }
  return undefined;
}

/**
 * One request first: a scenario that errors (a 4xx, GraphQL `errors` in a 200) is reported as an error rather
 * than measured, since autocannon would count fast errors as fast answers.
 */
export async function measure(
  name: string,
  detail: string,
  target: Target,
  settings: LoadSettings,
): Promise<Measurement> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(target.url, { method: target.method ?? 'GET', headers: target.headers, body: target.body });
    text = await response.text();
  } catch (error) {
    process.stderr.write(`  ${name} ${detail}: skipped, ${String(error)}\n`);
    return { name, detail, error: String(error) };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const errors = (body as { errors?: unknown[] } | undefined)?.errors;
  if (!response.ok || errors?.length) {
    const error = `${response.status}: ${text.slice(0, 200)}`;
    process.stderr.write(`  ${name} ${detail}: skipped, ${error}\n`);
    return { name, detail, error };
  }
  const result = await runLoad({ ...target, ...settings });
  const line: Measurement = { name, detail, total: totalOf(body), result };
  if (result.failures > 0)
    line.error = `${result.failures} of ${result.requests} responses failed under load (non-2xx, e.g. 429, or errors)`;
  if (result.requests === 0) line.error = `no response completed in ${settings.duration} s`;
  process.stderr.write(
    `  ${name.padEnd(34)} ${detail.padEnd(24)} ${String(result.rps).padStart(8)} req/s  p50 ${result.p50} ms  p95 ${result.p95} ms  p99 ${result.p99} ms${line.error ? `  (${line.error})` : ''}\n`,
  );
  return line;
}
