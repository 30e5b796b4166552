import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';
import { SNAPSHOT_DAY } from './real-data.ts';

const RECORDS = 100_000;

// A full collection before each heap sample, so the samples measure live objects, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Writes a House-layout JSON array of `count` distinct trades (about 30 MB for 100,000). */
async function writeHouseFile(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('[');
  for (let index = 0; index < count; index += 1) {
    const day = new Date(Date.UTC(2024, 0, 1) + (index % 600) * 86_400_000);
    const us = (date: Date) =>
      `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;
    const record = {
      disclosure_date: us(new Date(day.getTime() + 20 * 86_400_000)),
      transaction_date: us(day),
      owner: ['Self', 'Spouse', 'Joint'][index % 3],
      ticker: `T${index % 5000}`,
      asset_description: `Company ${index % 5000} - Common Stock`,
      type: index % 2 ? 'Purchase' : 'Sale',
      amount: '$1,001 - $15,000',
      representative: `Member ${index % 400}`,
      district: 'CA12',
      source_url: `https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2025/${20000000 + Math.floor(index / 25)}.pdf`,
    };
    if (!out.write(`${index ? ',' : ''}${JSON.stringify(record)}`)) await once(out, 'drain');
  }
  out.end(']');
  await once(out, 'finish');
}

/** Importers stream: a 100,000-record file goes through without the JS heap growing with the file. */
describe('streaming import of a large file', () => {
  let store: TestDatabases;
  let folder: string;

  beforeAll(async () => {
    // Opened as the import command opens it: a bulk load has no statement timeout (scripts/commands/run.ts).
    store = await createTestDatabases({ timeouts: false });
    folder = await mkdtemp(join(tmpdir(), 'import-large-'));
    await writeHouseFile(join(folder, 'house.json'), RECORDS);
  });
  afterAll(async () => {
    await store?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('imports 100,000 trades with a flat heap', { timeout: 600_000 }, async () => {
    collectGarbage();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let batches = 0;
    const started = Date.now();
    const result = await runImport(store.databases.live, 'house-trades', [join(folder, 'house.json')], {
      now: SNAPSHOT_DAY,
      // Called after every batch of a thousand rows: the heap is sampled as the import runs.
      progress: () => {
        batches += 1;
        if (batches % 10 !== 0) return;
        collectGarbage();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    const seconds = (Date.now() - started) / 1000;
    expect(result).toMatchObject({ read: RECORDS, inserted: RECORDS, rejected: 0 });
    const [count] = await store.databases.live.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM congressional_trades',
    );
    expect(count!.n).toBe(RECORDS);
    // Parsing the 30 MB file whole would hold some 200 MB of objects; streaming holds one batch and small indexes.
    expect(batches).toBeGreaterThanOrEqual(RECORDS / 1000);
    expect(peak - baseline).toBeLessThan(40 * 1024 * 1024);
    console.info(
      `imported ${RECORDS} trades in ${seconds.toFixed(1)} s; heap grew by at most ${((peak - baseline) / 1048576).toFixed(0)} MB`,
    );
  });
});
