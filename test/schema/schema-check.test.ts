/**
 * The breaking-change check (`npm run schema:check`, run by CI before the tests): the API schema of the published
 * supergraph against the current one, federation's join directives left out.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_DIR } from '../../gateway/supergraph.ts';
import { compareSchemas } from '../../scripts/schema-compat.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const current = readFileSync(`${SCHEMA_DIR}supergraph.graphql`, 'utf8');
// The field and its description line, which would otherwise be left dangling.
const PUBLIC_STATS = /\n( {2}"""[^\n]*"""\n)? {2}publicStats: PublicStats! @join__field\(graph: MARKETS\)\n/;
const withoutPublicStats = current.replace(PUBLIC_STATS, '\n');
const REMOVED = "FIELD_REMOVED Query.publicStats: Field 'publicStats' was removed from object type 'Query'";

function check(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('node', ['--import', 'tsx', 'scripts/schema-check.ts', ...args], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('compareSchemas', () => {
  it('finds a removed field, and lets it through only when the list of allowed changes names it', async () => {
    expect(withoutPublicStats).not.toBe(current);
    const refused = await compareSchemas(current, withoutPublicStats);
    expect(refused.breaking).toEqual([REMOVED]);

    const allowed = await compareSchemas(current, withoutPublicStats, [
      { change: 'FIELD_REMOVED Query.publicStats', reason: 'replaced by stats' },
      { change: 'FIELD_REMOVED Query.signals', reason: 'not removed after all' },
    ]);
    expect(allowed).toMatchObject({ breaking: [], allowed: [REMOVED], unused: ['FIELD_REMOVED Query.signals'] });
  });

  it('compares what clients see: an added field is not breaking, a subgraph URL in a join directive is no change', async () => {
    expect(await compareSchemas(withoutPublicStats, current)).toEqual({
      breaking: [],
      allowed: [],
      dangerous: [],
      unused: [],
    });
    const moved = current.replace('http://markets.subgraph.invalid/graphql', 'http://markets.internal:4002/graphql');
    expect(moved).not.toBe(current);
    expect(await compareSchemas(current, moved)).toMatchObject({ breaking: [], dangerous: [] });
  });
});

describe('npm run schema:check', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'schema-check-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes on the repository as checked in (the published schema, the current one and the list)', async () => {
    const result = await check([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('No breaking change against the published schema.');
  });

  it('exits 1 naming the change when a field is removed, and 0 once the list allows it', async () => {
    const changed = join(dir, 'supergraph.graphql');
    await writeFile(changed, withoutPublicStats);
    const refused = await check(['--current', changed, '--allowed', join(dir, 'none.json')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(REMOVED);

    const list = join(dir, 'allowed.json');
    await writeFile(list, JSON.stringify([{ change: 'FIELD_REMOVED Query.publicStats', reason: 'retired' }]));
    const allowed = await check(['--current', changed, '--allowed', list]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(REMOVED);
  });
});
