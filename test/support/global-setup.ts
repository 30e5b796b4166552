import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run keeps its template databases (see test/support/templates.ts). */
    templateRoot: string;
    /** Prefix of this run's template databases on the PostgreSQL server. */
    templatePrefix: string;
  }
}

/** One folder (and one database-name prefix) per run for the templates; removed when the run ends. */
export default async function setup(project: TestProject) {
  const root = await mkdtemp(join(tmpdir(), 'data-graph-templates-'));
  const prefix = `tpl_${randomBytes(4).toString('hex')}`;
  project.provide('templateRoot', root);
  project.provide('templatePrefix', prefix);
  return async () => {
    await rm(root, { recursive: true, force: true });
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) return;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${prefix}%`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}
