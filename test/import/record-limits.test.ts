import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../subgraphs/platform/process/command-tool.ts';
import { EXCERPT_CHARS, MAX_RECORD_BYTES } from '../../gateway/import/read/bounded-lines.ts';
import { runRecordsLoad } from '../../gateway/import/run.ts';
import { createTestDatabases } from '../support/databases.ts';
import type { TestDatabases } from '../support/databases.ts';

/**
 * The limits of `import -- records` on what a file may hold (docs/data-sources.md "Records", "Limits of a file"):
 * a record over 1 MiB, a heading given twice and bytes that are not UTF-8 are each refused with their line.
 */
describe('import -- records: limits of a file', () => {
  let store: TestDatabases;
  const directory = mkdtempSync(join(tmpdir(), 'record-limits-'));
  const file = (name: string, content: string | Buffer) => {
    const path = join(directory, name);
    writeFileSync(path, content);
    return path;
  };
  const load = (path: string, source: string) => runRecordsLoad(store.databases.live, 'companies', [path], { source });
  const rejectsOf = (path: string) =>
    readFileSync(`${path}.rejects.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; reason: string; record?: unknown; excerpt?: string });
  const stored = (source: string) =>
    store.databases.live.sql.query<{ external_id: string; name: string }>(
      `SELECT external_id, name FROM companies WHERE source = $1 ORDER BY external_id`,
      [source],
    );

  beforeAll(async () => {
    store = await createTestDatabases();
  });
  afterAll(async () => {
    await store?.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('rejects a 30 MB JSON line with its line number and keeps only an excerpt of it', async () => {
    const huge = JSON.stringify({ external_id: 'big', company: 'Big Corp', description: 'x'.repeat(30_000_000) });
    const path = file(
      'huge.jsonl',
      [{ external_id: 'a', company: 'Alpha' }, huge, { external_id: 'b', company: 'Beta' }]
        .map((row) => (typeof row === 'string' ? row : JSON.stringify(row)))
        .join('\n'),
    );
    const result = await load(path, 'huge');
    expect(result).toMatchObject({ read: 3, inserted: 2, rejected: 1 });
    const [rejected] = rejectsOf(path);
    expect(rejected).toMatchObject({
      line: 2,
      reason: `row: is ${Buffer.byteLength(huge)} bytes, over the ${MAX_RECORD_BYTES}-byte limit of a record`,
    });
    expect(rejected!.record).toBeUndefined();
    expect(rejected!.excerpt).toBe(huge.slice(0, EXCERPT_CHARS));
    expect(statSync(`${path}.rejects.jsonl`).size).toBeLessThan(1_000);
    expect((await stored('huge')).map((row) => row.external_id)).toEqual(['a', 'b']);
  });

  it('refuses a CSV that gives one heading twice, naming it and its line, and writes nothing', async () => {
    const path = file('twice.csv', 'external_id,Company,state,company\nd1,First Name,CA,Second Name\n');
    const refused = load(path, 'twice');
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(
      `${path} line 1: the heading "company" appears twice (columns 2 and 4); rename one`,
    );
    expect(await stored('twice')).toEqual([]);
  });

  it('rejects a CSV row and a JSON line that are not UTF-8, with their lines, and loads the rest', async () => {
    const csv = file(
      'latin1.csv',
      Buffer.concat([
        Buffer.from('external_id,company\nu1,Good Corp\nu2,Caf'),
        Buffer.from([0xe9]), // "é" in Latin-1: not a UTF-8 sequence
        Buffer.from(' Corp\nu3,Caf\u00e9 Two\n'),
      ]),
    );
    expect(await load(csv, 'latin1-csv')).toMatchObject({ read: 3, inserted: 2, rejected: 1 });
    expect(rejectsOf(csv).map(({ line, reason }) => ({ line, reason }))).toEqual([
      { line: 3, reason: 'row: is not valid UTF-8 (it holds U+FFFD, the mark of bytes that were not)' },
    ]);
    expect(await stored('latin1-csv')).toEqual([
      { external_id: 'u1', name: 'Good Corp' },
      { external_id: 'u3', name: 'Café Two' },
    ]);

    const jsonl = file(
      'latin1.jsonl',
      Buffer.concat([
        Buffer.from('{"external_id":"j1","company":"Caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}\n{"external_id":"j2","company":"Good Corp"}\n'),
      ]),
    );
    expect(await load(jsonl, 'latin1-jsonl')).toMatchObject({ read: 2, inserted: 1, rejected: 1 });
    expect(rejectsOf(jsonl)).toEqual([
      {
        file: 'latin1.jsonl',
        line: 1,
        reason: 'row: is not valid UTF-8',
        excerpt: '{"external_id":"j1","company":"Caf\uFFFD"}',
      },
    ]);
    expect(await stored('latin1-jsonl')).toEqual([{ external_id: 'j2', name: 'Good Corp' }]);
  });
});
