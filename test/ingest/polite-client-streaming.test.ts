import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { failureOf, removeStores, testClient } from './polite-client-support.ts';

// A full collection before each sample, so the samples measure live memory, not garbage not yet collected; and
// Buffers freed by it, at once rather than by a background sweeper (else the count lags by the bytes of a sample).
setFlagsFromString('--expose-gc');
setFlagsFromString('--no-concurrent-array-buffer-sweeping');
const collectGarbage = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
/** One megabyte of CSV rows, sent again and again: the server holds one chunk, whatever the file's size. */
const CHUNK = Buffer.from('2026-11-24,AAPL,231.50,233.10,230.90,232.75,51234567\n'.repeat(20_000).slice(0, MB));
const chunks = (count: number) =>
  async function* () {
    for (let index = 0; index < count; index += 1) yield CHUNK;
  };

/** JS heap plus Buffers (which live outside it): a body read whole into memory shows in one or the other. */
const memoryInUse = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

describe('the polite HTTP client: streaming to disk', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    server = await startFixtureServer({
      '/prices-100mb.csv': { stream: chunks(100), length: 100 * MB, contentType: 'text/csv' },
      // Chunked, so the size is unknown until the body passes the cap.
      '/endless.csv': { stream: chunks(1000), contentType: 'text/csv' },
      '/inflating.csv': { stream: chunks(50), contentType: 'text/csv', gzip: true },
    });
  });
  afterAll(async () => {
    await server?.close();
    await removeStores();
  });

  it('downloads 100 MB with flat memory, to the file named by its sha256', { timeout: 120_000 }, async () => {
    const { client, files } = await testClient();
    collectGarbage();
    const baseline = memoryInUse();
    let peak = baseline;
    let samples = 0;
    const sampler = setInterval(() => {
      collectGarbage();
      peak = Math.max(peak, memoryInUse());
      samples += 1;
    }, 50);
    const outcome = await client.fetchFile({ url: server.url('/prices-100mb.csv'), expect: 'csv' });
    clearInterval(sampler);

    const expected = createHash('sha256');
    for (let index = 0; index < 100; index += 1) expected.update(CHUNK);
    const sha256 = expected.digest('hex');
    expect(outcome).toMatchObject({ status: 'fetched', bytes: 100 * MB, sha256 });
    if (outcome.status !== 'fetched') throw new Error('not fetched');
    expect(outcome.path.endsWith(`/${sha256}.csv`)).toBe(true);
    expect((await stat(outcome.path)).size).toBe(100 * MB);
    expect(await files()).toEqual([`${sha256}.csv`]);
    // Sampled while the body flowed; reading it whole would hold 100 MB or more at the end.
    expect(samples).toBeGreaterThanOrEqual(2);
    expect(peak - baseline).toBeLessThan(16 * MB);
    console.info(
      `100 MB fetched; memory grew by at most ${((peak - baseline) / MB).toFixed(1)} MB over ${samples} samples`,
    );
  });

  it('cuts off a chunked body at the size cap instead of reading it whole', async () => {
    const { client, files } = await testClient({ maxBytes: 4 * MB });
    const failure = await failureOf(client, { url: server.url('/endless.csv'), expect: 'csv' });
    expect(failure).toMatchObject({
      code: 'too_large',
      httpStatus: 200,
      message: `the body passed the cap of ${4 * MB} bytes and was cut off`,
    });
    expect(await files()).toEqual([]);
    // The server did not get to send its 1,000 MB: the connection was closed under it.
    await expect.poll(() => server.requestsTo('/endless.csv')[0]!.completed).toBe(false);
  });

  it('counts the cap in decoded bytes, so a small gzip that inflates past it is cut off too', async () => {
    const { client, files } = await testClient({ maxBytes: 10 * MB });
    const failure = await failureOf(client, { url: server.url('/inflating.csv'), expect: 'csv' });
    expect(failure.code).toBe('too_large');
    expect(server.requestsTo('/inflating.csv')[0]!.headers['accept-encoding']).toMatch(/gzip/);
    expect(await files()).toEqual([]);
  });
});
