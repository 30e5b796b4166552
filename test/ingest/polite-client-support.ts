import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FetchFailure, createPoliteClient } from '../../gateway/ingest/http/polite-client.ts';
import type { FetchRequest, PoliteClientOptions } from '../../gateway/ingest/http/polite-client.ts';

export const USER_AGENT = 'data-graph-tests ops@example.com';

/** Store folders made by `testClient`, removed by `removeStores` after the file's tests. */
const stores: string[] = [];

/** A client with its own empty store folder, so that a test can list exactly what it left there. */
export async function testClient(options: Partial<PoliteClientOptions> = {}) {
  const storeDir = await mkdtemp(join(tmpdir(), 'polite-client-'));
  stores.push(storeDir);
  const client = createPoliteClient({ userAgent: USER_AGENT, storeDir, ...options });
  return { client, storeDir, files: () => readdir(storeDir) };
}

export async function removeStores(): Promise<void> {
  await Promise.all(stores.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
}

/** The failure a fetch ends with; fails the test when it succeeds or throws anything else. */
export async function failureOf(
  client: { fetchFile(request: FetchRequest): Promise<unknown> },
  request: FetchRequest,
): Promise<FetchFailure> {
  const error = await client.fetchFile(request).then(
    (outcome) => new Error(`expected a failure, got ${JSON.stringify(outcome)}`),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FetchFailure);
  return error as FetchFailure;
}
