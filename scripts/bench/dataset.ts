import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import { ROOT } from './processes.ts';

/** One database per scale on the bench server: bench_100k, bench_1m, bench_10m. */
export function databaseName(scale: number): string {
  if (scale % 1_000_000 === 0) return `bench_${scale / 1_000_000}m`;
  if (scale % 1_000 === 0) return `bench_${scale / 1_000}k`;
  return `bench_${scale}`;
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates the database when missing and seeds it with `npm run seed` unless it already holds the scale. */
export async function ensureDataset(serverUrl: string, scale: number): Promise<string> {
  const name = databaseName(scale);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = databaseUrl(serverUrl, name);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seeded = await client.query<{ companies: number }>('SELECT count(*)::int AS companies FROM companies').then(
    (result) => result.rows[0]?.companies ?? 0,
    () => 0,
  );
  await client.end();
  if (seeded === scale) return url;

  process.stderr.write(`seeding ${name} with ${scale.toLocaleString('en-US')} records per vertical…\n`);
  const args = ['--import', 'tsx', 'scripts/seed.ts', '--scale', String(scale), '--database', 'sandbox'];
  if (seeded > 0) args.push('--reset');
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, SANDBOX_DATABASE_URL: url, LOG_LEVEL: 'warn' },
  });
  if (result.status !== 0) throw new Error(`seeding ${name} failed`);
  return url;
}

/**
 * Institutional live keys in the bench database (the gateway reads keys from the live database), each of an
 * account of its own: one for most lines, a pool for the fields limited per account (see main.ts). `where` is a
 * PostgreSQL URL, or a PGlite DATA_DIR (pglite.ts; its live folder, while no server holds it).
 */
export async function createBenchKeys(where: { url: string } | { dataDir: string }, count: number): Promise<string[]> {
  const db = await openDatabase({ mode: 'live', ...where });
  const stamp = Date.now();
  const keys: string[] = [];
  try {
    for (let start = 0; start < count; start += 25) {
      const batch = Array.from({ length: Math.min(25, count - start) }, async (_, offset) => {
        const account = await createAccount(db, 'institutional', `bench-${stamp}-${start + offset}@example.com`);
        return (await createApiKey(db, account.id, 'live', 'bench')).key;
      });
      keys.push(...(await Promise.all(batch)));
    }
    return keys;
  } finally {
    await db.close();
  }
}
