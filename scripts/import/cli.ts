import { applyMigrations } from '../../prisma/migrate.ts';
import { env } from '../../subgraphs/shared/config.ts';
import { openDatabase } from '../../subgraphs/shared/database.ts';
import { parseCommandLine } from '../command-line.ts';
import type { Database, Mode } from '../../subgraphs/shared/database.ts';
import { listRejects } from './rejects.ts';
import { runImport } from './run.ts';
import { IMPORTERS } from './sources/index.ts';

/**
 * npm run --silent import -- <source> <file...> [--database live|sandbox] [--accession <number>]
 * npm run --silent import -- rejects <source> [--database live|sandbox]
 *
 * Progress goes to stderr; stdout gets one JSON line (the counts, or the rejects as JSON lines).
 */
const USAGE = `usage: import <source> <file...> [--database live|sandbox] [--accession <number>]
       import rejects <source> [--database live|sandbox]
sources:
${[...IMPORTERS.values()].map((importer) => `  ${importer.source.padEnd(16)} ${importer.describe}`).join('\n')}`;

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine(USAGE, {
    allowPositionals: true,
    options: {
      database: { type: 'string', default: 'live' },
      accession: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (values.database !== 'live' && values.database !== 'sandbox') {
    process.stderr.write(`--database must be live or sandbox, not "${values.database}"\n`);
    return 2;
  }
  if (command !== 'rejects' && !IMPORTERS.has(command)) {
    process.stderr.write(`unknown source "${command}"\n${USAGE}\n`);
    return 2;
  }
  const db = await openConfigured(values.database);
  try {
    if (command === 'rejects') {
      const source = rest[0];
      if (!source) throw new Error('rejects: name the source, e.g. `import -- rejects house-trades`');
      for (const entry of await listRejects(db.sql, source)) process.stdout.write(`${JSON.stringify(entry)}\n`);
      return 0;
    }
    const started = Date.now();
    const result = await runImport(db, command, rest, {
      accession: values.accession,
      progress: (message) => process.stderr.write(`${message}\n`),
    });
    process.stderr.write(`${command}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

/**
 * The database the server uses for this mode (DATABASE_URL / SANDBOX_DATABASE_URL, or PGlite under DATA_DIR),
 * migrated. A PostgreSQL pool connects on its first query, so a bad server shows up in the migration step.
 */
async function openConfigured(mode: Mode): Promise<Database> {
  const url = mode === 'live' ? env.DATABASE_URL : env.SANDBOX_DATABASE_URL;
  let db: Database | undefined;
  try {
    db = await openDatabase({ mode, url, dataDir: env.dataDir, timeouts: false });
    await applyMigrations(db);
    return db;
  } catch (error) {
    await db?.close().catch(() => undefined);
    const where = url ? 'the PostgreSQL server' : `the PGlite data directory ${env.dataDir}/${mode}`;
    const hint = url
      ? 'check that the server is running and the URL is right'
      : 'only one process may open it at a time: stop the server (npm start) and any other import, then retry';
    throw new Error(`cannot open ${where}: ${(error as Error).message}; ${hint}`, { cause: error });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
