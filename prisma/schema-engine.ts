import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import type * as EngineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';

/**
 * Prisma's schema engine compiled to WebAssembly. The CLI would download a native binary, which this
 * machine cannot; the WASM build applies and diffs migrations through our own driver adapters instead.
 */
const require = createRequire(import.meta.url);
export const SCHEMA_PATH = new URL('./schema.prisma', import.meta.url).pathname;
export const MIGRATIONS_DIR = new URL('./migrations', import.meta.url).pathname;

// @types/node does not declare the WebAssembly global; this is the part used here.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

let loaded: Promise<typeof EngineBindings> | undefined;

function loadWasm() {
  loaded ??= (async () => {
    const bindings = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    // Node's ESM loader refuses a bare .wasm import, so the module is instantiated by hand.
    const bytes = await readFile(
      join(dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')), 'schema_engine_bg.wasm'),
    );
    const { instance } = await WebAssembly.instantiate(bytes, {
      './schema_engine_bg.js': bindings,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return loaded;
}

export async function createSchemaEngine(factory: SqlMigrationAwareDriverAdapterFactory): Promise<SchemaEngine> {
  const bindings = await loadWasm();
  const datamodel = await readFile(SCHEMA_PATH, 'utf8');
  return bindings.SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, datamodel]] },
    () => undefined,
    bindMigrationAwareSqlAdapterFactory(factory),
  );
}

/** The migrations folder in the shape the engine expects (what the Prisma CLI reads from disk). */
export async function readMigrations(): Promise<MigrationList> {
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockPath = join(MIGRATIONS_DIR, 'migration_lock.toml');
  const lockContent = await readFile(lockPath, 'utf8').catch(() => null);
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

export const NO_FILTER = { externalTables: [], externalEnums: [] };
