import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';

export interface DataGraphClientOptions {
  /** Where the service answers, e.g. `http://localhost:4000` (no trailing path: routes start with /api). */
  baseUrl: string;
  /** An API key (`sk_live_…`, `sk_test_…`) or a session token; without one only the public routes answer. */
  apiKey?: string;
  /** A fetch of your own (a proxy agent, retries, a test double); the global fetch otherwise. */
  fetch?: typeof globalThis.fetch;
}

export type DataGraphClient = Client<paths>;

/**
 * A client whose paths, parameters and response bodies are typed from the service's OpenAPI document
 * (openapi-fetch over `paths` of schema.d.ts). Each call resolves to `{ data, error, response }`: `data` on a 2xx,
 * else `error`, the service's JSON error body (`{ error, message, details? }`); it never throws for an HTTP status.
 */
export function createDataGraphClient({ baseUrl, apiKey, fetch }: DataGraphClientOptions): DataGraphClient {
  return createClient<paths>({
    baseUrl,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
    ...(fetch ? { fetch } : {}),
  });
}
