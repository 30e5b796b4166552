import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { memoryTempDir } from './test/support/memory-temp-dir.ts';

const require = createRequire(import.meta.url);

/**
 * The suite runs once per database engine: always on PGlite, and on a PostgreSQL server when
 * TEST_DATABASE_URL names one (.ci/run starts one from Debian's package).
 */
const engines = [{ name: 'pglite', url: '' }];
if (process.env.TEST_DATABASE_URL) engines.push({ name: 'postgres', url: process.env.TEST_DATABASE_URL });

/**
 * Test files keep their databases and files in RAM where the machine allows it (test/support/memory-temp-dir.ts):
 * set here for the global setup, which runs in this process, and in `env` for the workers and what they start.
 */
const tempDir = memoryTempDir();
if (tempDir) process.env.TMPDIR = tempDir;

export default defineConfig({
  resolve: {
    // Apollo's packages require graphql's CommonJS build; our sources must load the same one, or graphql
    // sees two copies of its classes ("Cannot use GraphQLEnumType from another module or realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    projects: [
      // The pure tests (test/unit/: no database, Redis, browser or child process) do not depend on the engine: once.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...engines.map((engine) => ({
        extends: true as const,
        test: {
          name: engine.name,
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/bench/**', 'node_modules/**'],
          globalSetup: ['test/support/global-setup.ts'],
          env: { TEST_ENGINE: engine.name, TEST_DATABASE_URL: engine.url },
        },
      })),
    ],
    exclude: ['test/bench/**', 'node_modules/**'],
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test', ...(tempDir ? { TMPDIR: tempDir } : {}) },
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
