import {
  acquireDataDirLock,
  DataDirLockedError,
  describeHolder,
} from '../../subgraphs/platform/process/data-dir-lock.ts';
import type { LockHolder } from '../../subgraphs/platform/process/data-dir-lock.ts';
import { env } from '../../subgraphs/platform/config.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { adminSocketPath } from '../../subgraphs/platform/process/admin-protocol.ts';
import { handOver, ServerUnreachableError } from './server-client.ts';
import type {
  CommandOutput,
  CommandTool,
  OpenDatabases,
  PreparedCommand,
} from '../../subgraphs/platform/process/command-tool.ts';
import { loadTool } from '../../gateway/commands/load-tool.ts';
import type { ToolName } from '../../gateway/commands/load-tool.ts';

const terminal: CommandOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  terminal: process.stderr.isTTY ? process.stderr : undefined,
};

/**
 * Runs `admin` or `import` from the command line and returns the exit code. On PostgreSQL the command writes
 * itself (several writers are fine). On PGlite only one process may open DATA_DIR: with the folder free the
 * command takes its lock and writes; with a server holding it, the server does the work (admin socket) and
 * the command prints what the server printed; when that server does not answer, or another command holds
 * the folder, it refuses with one line and exit code 2, having done nothing.
 */
export async function runCommandLine(name: ToolName, argv: string[]): Promise<number> {
  const tool = await loadTool(name);
  let prepared: PreparedCommand | number;
  try {
    prepared = tool.prepare(argv, terminal);
  } catch (error) {
    return tool.fail(error, terminal);
  }
  if (typeof prepared === 'number') return prepared;
  if (modesOf(prepared).every((mode) => urlOf(mode))) return runHere(tool, prepared);

  let lock;
  try {
    lock = acquireDataDirLock(env.dataDir, name);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) return tool.fail(error, terminal);
    if (error.holder.role === 'server' || error.holder.role === 'subgraph')
      return handToServer(tool, prepared, error.holder);
    terminal.err(`${name}: ${error.message}; retry when it has finished\n`);
    return 2;
  }
  try {
    return await runHere(tool, prepared);
  } finally {
    lock.release();
  }
}

async function handToServer(tool: CommandTool, prepared: PreparedCommand, holder: LockHolder): Promise<number> {
  const socket = holder.socket ?? adminSocketPath(env.dataDir);
  try {
    return await handOver(socket, { tool: tool.name, argv: prepared.argv }, terminal);
  } catch (error) {
    if (!(error instanceof ServerUnreachableError)) throw error;
    terminal.err(
      `${tool.name}: ${describeHolder(holder)} holds ${env.dataDir} but does not answer on its admin socket ${socket} (${error.message}); nothing was done: retry once it prints its URL, or stop it and retry\n`,
    );
    return 2;
  }
}

const urlOf = (mode: Mode) => (mode === 'live' ? env.DATABASE_URL : env.SANDBOX_DATABASE_URL);

/** The databases a command opens: its own, and the other too when it reaches both. */
const modesOf = (prepared: PreparedCommand): Mode[] =>
  prepared.bothDatabases ? [prepared.mode, prepared.mode === 'live' ? 'sandbox' : 'live'] : [prepared.mode];

/** Opens the command's databases (PostgreSQL where configured, else PGlite under DATA_DIR's lock) and runs it. */
async function runHere(tool: CommandTool, prepared: PreparedCommand): Promise<number> {
  const databases: OpenDatabases = {};
  try {
    for (const mode of modesOf(prepared)) databases[mode] = await openMigrated(mode, urlOf(mode));
    return await prepared.run(databases[prepared.mode]!, terminal, databases);
  } catch (error) {
    return tool.fail(error, terminal);
  } finally {
    await Promise.all(Object.values(databases).map((db) => db.close()));
  }
}

/**
 * The database the server uses for this mode, migrated. A PostgreSQL pool connects on its first query, so a
 * bad server shows up in the migration step.
 */
async function openMigrated(mode: Mode, url: string | undefined): Promise<Database> {
  // Loaded here, not at the top: a command refused for its arguments exits without loading Prisma and PGlite.
  const [{ openDatabase }, { applyMigrations }] = await Promise.all([
    import('../../subgraphs/platform/database.ts'),
    import('../../prisma/migrate.ts'),
  ]);
  let db: Database | undefined;
  try {
    // Imports and admin commands may rightly run long statements: no statement timeout here.
    db = await openDatabase({ mode, url, dataDir: env.dataDir, timeouts: false });
    await applyMigrations(db);
    return db;
  } catch (error) {
    await db?.close().catch(() => undefined);
    const where = url ? 'the PostgreSQL server' : `the PGlite data directory ${env.dataDir}/${mode}`;
    const hint = url
      ? 'check that the server is running and the URL is right'
      : 'check that the folder is readable and writable';
    throw new Error(`cannot open ${where}: ${(error as Error).message}; ${hint}`, { cause: error });
  }
}
