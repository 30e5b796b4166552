import type { LayerRule } from './import-graph.ts';

/**
 * The layers of docs/design.md "Shape" that a chain of imports must not cross, checked transitively (eslint's
 * `import-x/no-restricted-paths` sees only a file's own static imports). Type-only imports count: a kernel
 * that names a type of the gateway cannot be read, compiled or changed without it.
 */
export const LAYER_RULES: readonly LayerRule[] = [
  {
    from: ['subgraphs/platform/'],
    forbidden: [
      'subgraphs/verticals/',
      'subgraphs/markets/',
      'subgraphs/index.ts',
      'subgraphs/data-loading.ts',
      'gateway/',
      'scripts/',
      'prisma/seed/',
    ],
    message:
      'the kernel (subgraphs/platform) imports no subgraph, gateway, scripts/ or prisma/seed: take it as a parameter from the process entry',
  },
  {
    from: ['gateway/'],
    forbidden: ['scripts/'],
    message: 'the server imports nothing from scripts/ (command-line entries): what it runs lives beside it',
  },
];
