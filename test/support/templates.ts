import { cpSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { applyMigrations } from '../../prisma/migrate.ts';
import { seedDatabase } from '../../prisma/seed/index.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import type { Mode } from '../../subgraphs/platform/database.ts';

/**
 * Migrating and seeding take most of a test file's start-up, and most files want the same data. So each
 * distinct (sandbox scale, live scale) is built once per run — a PGlite folder, or a pair of PostgreSQL
 * template databases — and every test gets a copy (a folder copy, or CREATE DATABASE … TEMPLATE).
 */
export interface TemplateSpec {
  sandboxScale: number;
  liveScale: number;
}

const MODES: Mode[] = ['live', 'sandbox'];

function templateKey(spec: TemplateSpec): string {
  return `s${spec.sandboxScale}_l${spec.liveScale}`;
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

async function fill(databases: Record<Mode, Awaited<ReturnType<typeof openDatabase>>>, spec: TemplateSpec) {
  for (const database of Object.values(databases)) await applyMigrations(database);
  if (spec.sandboxScale) await seedDatabase(databases.sandbox, { scale: spec.sandboxScale });
  // Another generator seed, so live and sandbox data differ.
  if (spec.liveScale) await seedDatabase(databases.live, { scale: spec.liveScale, seed: 2 });
}

/** Copies the PGlite template of `spec` into `dataDir` (live/ and sandbox/ folders). */
export async function copyPgliteTemplate(spec: TemplateSpec, dataDir: string): Promise<void> {
  const template = join(inject('templateRoot'), `pglite_${templateKey(spec)}`);
  await once(template, async () => {
    const building = `${template}.building`;
    const opened = {} as Record<Mode, Awaited<ReturnType<typeof openDatabase>>>;
    for (const mode of MODES) opened[mode] = await openDatabase({ mode, dataDir: building });
    await fill(opened, spec);
    for (const database of Object.values(opened)) await database.close();
    await rename(building, template);
  });
  await rm(dataDir, { recursive: true, force: true });
  // fs/promises' cp awaits each of the ~2,600 files in turn: 0.85-1 s in RAM, where cpSync takes 0.12 s.
  cpSync(template, dataDir, { recursive: true });
}

/** The names of the PostgreSQL template databases of `spec`, built on first use. */
export async function postgresTemplate(spec: TemplateSpec, serverUrl: string): Promise<Record<Mode, string>> {
  const prefix = `${inject('templatePrefix')}_${templateKey(spec)}`;
  const names = { live: `${prefix}_live`, sandbox: `${prefix}_sandbox` };
  await once(join(inject('templateRoot'), prefix), async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    for (const name of Object.values(names)) await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const opened = {} as Record<Mode, Awaited<ReturnType<typeof openDatabase>>>;
    for (const mode of MODES) opened[mode] = await openDatabase({ mode, url: databaseUrl(serverUrl, names[mode]) });
    await fill(opened, spec);
    // A template must have no open connections when it is copied.
    for (const database of Object.values(opened)) await database.close();
    await mkdir(join(inject('templateRoot'), prefix));
  });
  return names;
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
