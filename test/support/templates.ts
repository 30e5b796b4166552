import { cpSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { applyMigrations } from '../../prisma/migrate.ts';
import { seedDatabase } from '../../prisma/seed/index.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';

/**
 * Migrating and seeding take most of a test file's start-up, and most files want the same data. So each
 * database a test may ask for is built once per run and every test gets a copy (a folder copy on PGlite,
 * CREATE DATABASE … TEMPLATE on PostgreSQL): the migrated database first, then each distinct generated data
 * set (scale, generator seed) as a copy of it, seeded. A (sandbox scale, live scale) pair is two of those, so
 * the migrations run once per run and a data set shared by several pairs is generated once.
 */
export interface TemplateSpec {
  sandboxScale: number;
  liveScale: number;
}

/** One database's contents: the migrated schema, and `scale` records per vertical from generator seed `seed`. */
interface DataSet {
  scale: number;
  seed?: number;
}

/** Sandbox and live data differ: live is generated from another seed. */
const dataSets = (spec: TemplateSpec): Record<Mode, DataSet> => ({
  sandbox: { scale: spec.sandboxScale },
  live: { scale: spec.liveScale, seed: 2 },
});

const MIGRATED: DataSet = { scale: 0 };

function dataSetKey({ scale, seed }: DataSet): string {
  return scale ? `s${scale}_g${seed ?? 'default'}` : 'migrated';
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Runs `build` once across the run's worker processes (mkdir is the lock); others wait for `done`. */
async function once(done: string, build: () => Promise<void>): Promise<void> {
  if (await exists(done)) return;
  try {
    await mkdir(`${done}.lock`);
  } catch {
    while (!(await exists(done))) await sleep(200);
    return;
  }
  await build();
}

/** Migrates a new database, or seeds a copy of the migrated one. */
async function fill(database: Database, set: DataSet) {
  if (set.scale) await seedDatabase(database, { scale: set.scale, seed: set.seed });
  else await applyMigrations(database);
}

/** The PGlite data folder of `set`, built on first use. */
async function pgliteDataSet(set: DataSet): Promise<string> {
  const folder = join(inject('templateRoot'), `pglite_${dataSetKey(set)}`);
  await once(folder, async () => {
    // openDatabase keeps PGlite under <dataDir>/<mode>: the folder is built as `live` of a scratch dataDir.
    const building = `${folder}.building`;
    if (set.scale) cpSync(await pgliteDataSet(MIGRATED), join(building, 'live'), { recursive: true });
    const database = await openDatabase({ mode: 'live', dataDir: building });
    await fill(database, set);
    await database.close();
    await rename(join(building, 'live'), folder);
    await rm(building, { recursive: true, force: true });
  });
  return folder;
}

/** Copies the PGlite databases of `spec` into `dataDir` (live/ and sandbox/ folders). */
export async function copyPgliteTemplate(spec: TemplateSpec, dataDir: string): Promise<void> {
  const sets = dataSets(spec);
  const folders = { live: await pgliteDataSet(sets.live), sandbox: await pgliteDataSet(sets.sandbox) };
  await rm(dataDir, { recursive: true, force: true });
  // fs/promises' cp awaits each of the ~2,600 files in turn: 0.85-1 s in RAM, where cpSync takes 0.12 s.
  for (const mode of ['live', 'sandbox'] as const) cpSync(folders[mode], join(dataDir, mode), { recursive: true });
}

/** The name of the PostgreSQL template database of `set`, built on first use. */
async function postgresDataSet(set: DataSet, serverUrl: string): Promise<string> {
  const name = `${inject('templatePrefix')}_${dataSetKey(set)}`;
  await once(join(inject('templateRoot'), name), async () => {
    const source = set.scale ? await postgresDataSet(MIGRATED, serverUrl) : undefined;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}${source ? ` TEMPLATE ${source}` : ''}`);
    await admin.end();
    const database = await openDatabase({ mode: 'live', url: databaseUrl(serverUrl, name) });
    await fill(database, set);
    // A template must have no open connections when it is copied.
    await database.close();
    await mkdir(join(inject('templateRoot'), name));
  });
  return name;
}

/** The names of the PostgreSQL template databases of `spec`, built on first use. */
export async function postgresTemplate(spec: TemplateSpec, serverUrl: string): Promise<Record<Mode, string>> {
  const sets = dataSets(spec);
  return { live: await postgresDataSet(sets.live, serverUrl), sandbox: await postgresDataSet(sets.sandbox, serverUrl) };
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
