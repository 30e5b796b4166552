import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileTrees } from '../../support/file-tree.ts';
import { findLayerViolations } from '../../../scripts/lint/import-graph.ts';
import { LAYER_RULES } from '../../../scripts/lint/layer-rules.ts';

const tree = fileTrees('import-layers-');

const chains = (root: string) => findLayerViolations(root, LAYER_RULES).map((violation) => violation.chain);

describe('the import-layer check (scripts/lint/import-layers.ts)', () => {
  it('reports a kernel file reaching scripts/ through a module outside the kernel', () => {
    const root = tree({
      'subgraphs/platform/start.ts': "import { prepare } from '../../prisma/prepare.ts';\nexport const go = prepare;\n",
      'prisma/prepare.ts': "import { parse } from '../scripts/command-line.ts';\nexport const prepare = parse;\n",
      'scripts/command-line.ts': 'export const parse = () => 1;\n',
    });
    expect(chains(root)).toEqual([['subgraphs/platform/start.ts', 'prisma/prepare.ts', 'scripts/command-line.ts']]);
  });

  it('follows a dynamic import(), a re-export and a type-only import', () => {
    const root = tree({
      'subgraphs/platform/lazy.ts': "export const load = () => import('../../prisma/loader.ts');\n",
      'prisma/loader.ts': "export { tool } from '../gateway/commands/tool.ts';\n",
      'gateway/commands/tool.ts': 'export const tool = 1;\n',
      'subgraphs/platform/barrel.ts': "export * from './inner.ts';\n",
      'subgraphs/platform/inner.ts': "export { seed } from '../../prisma/seed/index.ts';\n",
      'prisma/seed/index.ts': 'export const seed = 1;\n',
      'subgraphs/platform/typed.ts': "import type { Lead } from '../markets/lead.ts';\nexport type Kept = Lead;\n",
      'subgraphs/markets/lead.ts': 'export interface Lead { id: string }\n',
    });
    expect(chains(root)).toEqual([
      ['subgraphs/platform/inner.ts', 'prisma/seed/index.ts'],
      ['subgraphs/platform/lazy.ts', 'prisma/loader.ts', 'gateway/commands/tool.ts'],
      ['subgraphs/platform/typed.ts', 'subgraphs/markets/lead.ts'],
    ]);
  });

  it('reports the gateway reaching scripts/, also through the kernel', () => {
    const root = tree({
      'gateway/server.ts':
        "import { schedule } from '../subgraphs/platform/schedule.ts';\nexport const s = schedule;\n",
      'subgraphs/platform/schedule.ts': "export const schedule = () => import('../../scripts/ingest/run.ts');\n",
      'scripts/ingest/run.ts': 'export const run = 1;\n',
    });
    expect(chains(root)).toEqual([
      ['subgraphs/platform/schedule.ts', 'scripts/ingest/run.ts'],
      ['gateway/server.ts', 'subgraphs/platform/schedule.ts', 'scripts/ingest/run.ts'],
    ]);
  });

  it('passes a tree whose imports go one way only', () => {
    const root = tree({
      'subgraphs/platform/database.ts':
        "import { apply } from '../../prisma/migrate.ts';\nexport const open = apply;\n",
      'prisma/migrate.ts':
        "import type { Open } from '../subgraphs/platform/types.ts';\nexport const apply = (o?: Open) => o;\n",
      'subgraphs/platform/types.ts':
        "import pg from 'pg';\nimport { join } from 'node:path';\nexport type Open = typeof pg | typeof join;\n",
      'subgraphs/markets/schema.ts': "import { open } from '../platform/database.ts';\nexport const s = open;\n",
      'gateway/main.ts':
        "import { s } from '../subgraphs/markets/schema.ts';\nimport { seed } from '../prisma/seed/index.ts';\nexport const m = [s, seed];\n",
      'prisma/seed/index.ts': "export const seed = () => import('../../subgraphs/markets/schema.ts');\n",
      'scripts/admin.ts': "import { m } from '../gateway/main.ts';\nexport const a = m;\n",
    });
    expect(chains(root)).toEqual([]);
  });

  it('passes on this repository', () => {
    expect(chains(fileURLToPath(new URL('../../../', import.meta.url)))).toEqual([]);
  });
});
