import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { copyPgliteTemplate, databaseUrl, postgresTemplate } from './templates.ts';

/** Which engine this test run uses (vitest.config.ts runs the suite once per engine). */
export const TEST_ENGINE = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabases {
  databases: Record<Mode, Database>;
  /** Where PGlite keeps its files (also DATA_DIR for anything else the test writes). */
  dataDir: string;
  /** The databases' connection URLs on PostgreSQL (none with PGlite), for services started as processes. */
  urls: Partial<Record<Mode, string>>;
  /** Reopens the same databases, as a restarted server would. */
  reopen(options?: { onQuery?: (sql: string) => void }): Promise<Record<Mode, Database>>;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  onQuery?: (sql: string) => void;
  /** Records per vertical generated into the sandbox database (0: migrated but empty). */
  sandboxScale?: number;
  /** Records per vertical generated into the live database (0: migrated but empty). */
  liveScale?: number;
  /** `false`: no statement timeouts, as the import and admin commands open their database (bulk work). */
  timeouts?: false;
}

/**
 * Fresh, migrated (and optionally seeded) live and sandbox databases of the engine under test: PGlite in a
 * temporary folder, or two new databases on the PostgreSQL server — copies of a template built once per run.
 */
export async function createTestDatabases(options: TestDatabaseOptions = {}): Promise<TestDatabases> {
  const spec = { sandboxScale: options.sandboxScale ?? 0, liveScale: options.liveScale ?? 0 };
  const dataDir = await mkdtemp(join(tmpdir(), 'data-graph-test-'));
  const serverUrl = process.env.TEST_DATABASE_URL;
  const urls: Partial<Record<Mode, string>> = {};
  if (TEST_ENGINE === 'postgres' && serverUrl) {
    const templates = await postgresTemplate(spec, serverUrl);
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const suffix = randomBytes(5).toString('hex');
    for (const mode of ['live', 'sandbox'] as const) {
      await admin.query(`CREATE DATABASE test_${suffix}_${mode} TEMPLATE ${templates[mode]}`);
      urls[mode] = databaseUrl(serverUrl, `test_${suffix}_${mode}`);
    }
    await admin.end();
  } else {
    await copyPgliteTemplate(spec, dataDir);
  }
  const open = async (onQuery?: (sql: string) => void) => {
    const opened = {} as Record<Mode, Database>;
    for (const mode of ['live', 'sandbox'] as const) {
      opened[mode] = await openDatabase({ mode, url: urls[mode], dataDir, onQuery, timeouts: options.timeouts });
    }
    return opened;
  };
  let databases = await open(options.onQuery);
  return {
    get databases() {
      return databases;
    },
    dataDir,
    urls,
    async reopen(reopenOptions = {}) {
      await Promise.all(Object.values(databases).map((database) => database.close()));
      databases = await open(reopenOptions.onQuery);
      return databases;
    },
    async drop() {
      await Promise.all(Object.values(databases).map((database) => database.close().catch(() => undefined)));
      if (serverUrl && Object.keys(urls).length) {
        const admin = new pg.Client({ connectionString: serverUrl });
        await admin.connect();
        for (const url of Object.values(urls)) {
          await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
        }
        await admin.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
