import { join } from 'node:path';
import { env } from '../../subgraphs/platform/config.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import { createPoliteClient } from './http/polite-client.ts';
import type { PoliteClient, PoliteClientOptions } from './http/polite-client.ts';

/** Downloads, by content hash, so any run can be imported again from exactly what it fetched. */
export const INGEST_STORE_DIR = join(env.dataDir, 'ingest', 'files');
/** Each run's folder of named links to its downloads, removed when the run ends. */
export const INGEST_WORK_DIR = join(env.dataDir, 'ingest', 'runs');

/** The fetcher as configured (INGEST_USER_AGENT, INGEST_TIMEOUT_MS, INGEST_MAX_BYTES, INGEST_RATE). */
export function ingestClient(overrides: Partial<PoliteClientOptions> = {}): PoliteClient {
  return createPoliteClient({
    userAgent: env.INGEST_USER_AGENT,
    storeDir: INGEST_STORE_DIR,
    timeoutMs: env.INGEST_TIMEOUT_MS,
    maxBytes: env.INGEST_MAX_BYTES,
    requestsPerSecondPerHost: env.INGEST_RATE,
    logger: logger.child({ component: 'ingest' }),
    ...overrides,
  });
}
