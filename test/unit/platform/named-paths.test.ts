import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileTrees } from '../../support/file-tree.ts';
import { findStalePaths } from '../../../scripts/lint/named-paths.ts';

const tree = fileTrees('named-paths-');

const stale = (root: string) => findStalePaths(root).map(({ file, line, path }) => `${file}:${line} ${path}`);

describe('paths named in docs and comments (scripts/lint/named-paths.ts)', () => {
  it('reports a rooted path, a relative name and a folder that name nothing, with their lines', () => {
    const root = tree({
      'gateway/execution/execution.ts': '// The seam; outcome.ts shapes what it returns.\nexport const run = 1;\n',
      'gateway/execution/outcome.ts': 'export const shape = 1;\n',
      'gateway/rest/routes.ts': [
        "import { run } from '../execution/execution.ts';",
        '/** Hands each route to gateway/execution/execution.ts (was gateway/rest/direct.ts). */',
        'export const routes = [run]; // see direct.ts and scripts/ingest/sources/',
        "const url = 'https://example.com/gateway/rest/gone.ts'; // a string, not prose: gateway/gone.ts is",
        '',
      ].join('\n'),
      'docs/design.md': '# Design\n\nThe seam is `gateway/execution/` (`execution.ts`, `outcome.ts`, `planner.ts`).\n',
    });
    expect(stale(root)).toEqual([
      'docs/design.md:3 planner.ts',
      'gateway/rest/routes.ts:2 gateway/rest/direct.ts',
      'gateway/rest/routes.ts:3 direct.ts',
      'gateway/rest/routes.ts:3 scripts/ingest/sources/',
      'gateway/rest/routes.ts:4 gateway/gone.ts',
    ]);
  });

  it('accepts what the prose marks as gone or elsewhere, globs that match, and other repositories', () => {
    const root = tree({
      'gateway/rest/verticals-routes.ts': 'export const routes = [];\n',
      'docs/performance.md': [
        '1. The fast path `gateway/graphql-fast-path.ts` (since removed: its work is in `gateway/rest/`).',
        '2. The runner (`gateway/rest/direct.ts`, since removed; `gateway/hand-over.ts`, now `gateway/rest/`) ran.',
        '3. `gateway/graphql-server.ts` (now `gateway/rest/verticals-routes.ts`) built the server.',
        '4. Every table in `gateway/rest/*-routes.ts` and `docs/**/*.md`.',
        '',
        '| hayes/pothos `src/builder.ts` | one builder |',
        '',
        'Run `scripts/refresh.sh` (not in this repository) nightly; cron calls scripts/refresh.sh.',
      ].join('\n'),
    });
    expect(stale(root)).toEqual([]);
  });

  it('a probe: a glob that matches nothing and a moved file are reported', () => {
    const root = tree({
      'gateway/rest/verticals-routes.ts': 'export const routes = [];\n',
      'README.md': [
        'Tables: `gateway/rest/*-tables.ts`; the runner `gateway/rest/direct.ts` (since gone).',
        'The old path `gateway/hand-over.ts` (since removed: now `gateway/rest/hand-over.ts`).',
        '',
      ].join('\n'),
    });
    expect(stale(root)).toEqual([
      'README.md:1 gateway/rest/*-tables.ts',
      'README.md:1 gateway/rest/direct.ts',
      'README.md:2 gateway/rest/hand-over.ts',
    ]);
  });

  it('every path named in this repository exists', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    expect(stale(root)).toEqual([]);
  });
});
