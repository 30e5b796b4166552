import { parseCommandLine } from './command-line.ts';
import { env } from '../subgraphs/platform/config.ts';
import type { Mode } from '../subgraphs/platform/database.ts';
import type { SeedProgress } from '../prisma/seed/index.ts';

/**
 * npm run seed -- --scale <records per vertical> [--database live|sandbox] [--seed N] [--reset]
 *
 * Migrates the chosen database, then fills it. Progress goes to stderr; the last line on stdout is the
 * summary as JSON, so scripts can read it.
 */
const USAGE = 'usage: npm run seed -- [--scale 5000] [--database sandbox|live] [--seed N] [--reset]';

/** A refusal with a message for the user; main prints it and exits non-zero after closing the database. */
class CliError extends Error {}

function fail(message: string): never {
  throw new CliError(message);
}

function parseCli() {
  const { values } = parseCommandLine(USAGE, {
    options: {
      scale: { type: 'string', default: '5000' },
      database: { type: 'string', default: 'sandbox' },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
    },
  });
  const scale = Number(values.scale);
  if (!Number.isInteger(scale) || scale < 1) fail(`--scale must be a positive integer, got "${values.scale}"`);
  if (values.database !== 'live' && values.database !== 'sandbox') fail(`--database must be live or sandbox`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) fail(`--seed must be an integer, got "${values.seed}"`);
  return { scale, mode: values.database as Mode, seed, reset: values.reset };
}

/** One progress line per table per second, and always the table's last line. */
function progressPrinter() {
  const lastPrinted = new Map<string, number>(); // tables load side by side on PostgreSQL
  return (progress: SeedProgress) => {
    const now = performance.now();
    if (now - (lastPrinted.get(progress.table) ?? -Infinity) < 1000 && !progress.done) return;
    lastPrinted.set(progress.table, now);
    const rate = progress.rowsPerSecond.toLocaleString('en-US');
    const rows = progress.rows.toLocaleString('en-US').padStart(12);
    const total = progress.done ? 'done' : `of ~${progress.total.toLocaleString('en-US')}`;
    process.stderr.write(`${progress.table.padEnd(21)} ${rows} rows ${total.padEnd(16)} ${rate} rows/s\n`);
  };
}

async function main() {
  const options = parseCli();
  // Loaded once the arguments are checked: --help and a typo answer without loading Prisma, PGlite and the generator.
  const [{ openDatabase }, { applyMigrations }, { isSeeded, resetSeedTables, seedDatabase }] = await Promise.all([
    import('../subgraphs/platform/database.ts'),
    import('../prisma/migrate.ts'),
    import('../prisma/seed/index.ts'),
  ]);
  const url = options.mode === 'live' ? env.DATABASE_URL : env.SANDBOX_DATABASE_URL;
  // Index builds over millions of rows outlast any serving timeout.
  const db = await openDatabase({ mode: options.mode, url, dataDir: env.dataDir, timeouts: false });
  try {
    const applied = await applyMigrations(db);
    if (applied.length > 0) process.stderr.write(`applied migrations: ${applied.join(', ')}\n`);
    if (options.reset) {
      await resetSeedTables(db);
      process.stderr.write(`emptied the generated tables of the ${options.mode} database\n`);
    } else if (await isSeeded(db)) {
      fail(`The ${options.mode} database is already seeded. Run again with --reset to replace its generated records.`);
    }
    const summary = await seedDatabase(db, {
      scale: options.scale,
      seed: options.seed,
      onProgress: progressPrinter(),
      onTableFailed: (table, error) =>
        process.stderr.write(
          `${table}: load failed (${error instanceof Error ? error.message : String(error)}); finishing the other tables and the indexes before exiting\n`,
        ),
    });
    process.stdout.write(`${JSON.stringify({ database: options.mode, engine: db.engine, ...summary })}\n`);
  } finally {
    await db.close();
  }
}

try {
  await main();
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`${error.message}\n${USAGE}\n`);
  process.exitCode = 1;
}
