import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['node_modules/', 'prisma/generated/', 'data/', 'scratch/', '.bench/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The layers (docs/design.md "Shape"): platform → subgraphs → gateway, one way; scripts and tests may use all.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript files are modules to follow (the plugin reads only .js by default).
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: {
      // Runtime cycles only: `import type` is erased and cannot form one.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './subgraphs',
              from: './gateway',
              message: 'Subgraphs and the platform layer must not import the gateway.',
            },
            {
              target: './subgraphs/platform',
              from: ['./subgraphs/verticals', './subgraphs/markets'],
              message: 'The platform layer must not import a subgraph.',
            },
            {
              target: './subgraphs/verticals',
              from: './subgraphs/markets',
              message: 'Subgraphs meet only through federation.',
            },
            {
              target: './subgraphs/markets',
              from: './subgraphs/verticals',
              message: 'Subgraphs meet only through federation.',
            },
            {
              target: './gateway/limits',
              from: ['./gateway/auth', './gateway/access'],
              message: 'gateway/limits is below auth and access (gateway/access combines them).',
            },
            { target: './gateway/auth', from: './gateway/access', message: 'gateway/auth is below gateway/access.' },
            {
              target: './scripts/start-subgraph.ts',
              from: './gateway',
              // The commands handed to it over the admin socket (accounts, imports) are the server's code, loaded on demand.
              except: ['./commands/load-tool.ts'],
              message: 'A subgraph service runs on the platform layer and its subgraph alone.',
            },
            {
              target: './gateway',
              from: './subgraphs',
              except: ['./platform', './index.ts', './data-loading.ts'],
              message:
                'The gateway reaches a subgraph through subgraphs/index.ts (its schema, plan rules, record catalog) or, for the importers, subgraphs/data-loading.ts, never its internals.',
            },
          ],
        },
      ],
    },
  },
  {
    // Test helpers return parsed JSON whose shape each test asserts.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The account dashboard's browser module, served as written (gateway/account/page.ts): the browser's globals.
    files: ['gateway/account/assets/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: { document: 'readonly', fetch: 'readonly', navigator: 'readonly', FormData: 'readonly' },
    },
  },
);
