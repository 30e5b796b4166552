import type { Database, Mode } from '../database.ts';

/** Where a command prints: the terminal, or the admin socket back to the command that handed its work over. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
  /** The terminal `err` writes to, when it is one (a progress bar may be drawn there); absent over the socket. */
  terminal?: NodeJS.WriteStream;
}

/** A command whose arguments were checked: the database it needs, the arguments a server gets, and its work. */
export interface PreparedCommand {
  mode: Mode;
  /** Work that reaches the other database too (an account's sandbox endpoints and jobs): both are opened. */
  bothDatabases?: boolean;
  /** The arguments as a running server receives them (file paths made absolute). */
  argv: string[];
  /** Runs on an open, migrated database and returns the exit code; `databases` holds every one open, by mode. */
  run(db: Database, output: CommandOutput, databases: OpenDatabases): Promise<number>;
}

export type OpenDatabases = Partial<Record<Mode, Database>>;

/** Both databases, which a command prepared with `bothDatabases` is given. */
export function bothDatabases(databases: OpenDatabases): Record<Mode, Database> {
  const { live, sandbox } = databases;
  if (!live || !sandbox) throw new Error('this command needs the live and sandbox databases open');
  return { live, sandbox };
}

/** `admin`, `import` and `ingest`: the same code runs in the command's process or, handed over, in the server's. */
export interface CommandTool {
  name: string;
  /** Checks the arguments; an exit code means there is nothing to run (help). Throws on bad arguments. */
  prepare(argv: string[], output: CommandOutput): PreparedCommand | number;
  /** Prints an error as the command always has and returns its exit code. */
  fail(error: unknown, output: CommandOutput): number;
}

/** Arguments a command cannot run with: it prints the problem and its usage and exits 2. */
export class UsageError extends Error {}

/** A usage error of ours, or node's parseArgs refusing an option. */
export function isUsageError(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  );
}

/**
 * The tools a process runs for the admin socket, by name: given by its entry (gateway/commands/load-tool.ts),
 * since the tools themselves (accounts, importers) are code of the layers above this one.
 */
export interface CommandTools {
  names: readonly string[];
  load(name: string): Promise<CommandTool>;
}

/**
 * The `fail` of `import` and `ingest`: `<name> failed: <message>` (exit 1), or for a usage error
 * `<name>: <message>` and the usage (exit 2).
 */
export function failWithUsage(name: string, usageText: string) {
  return (error: unknown, output: CommandOutput): number => {
    const usage = isUsageError(error);
    output.err(
      `${name}${usage ? '' : ' failed'}: ${error instanceof Error ? error.message : String(error)}\n${usage ? `${usageText}\n` : ''}`,
    );
    return usage ? 2 : 1;
  };
}

/** `--help` or `-h` before any `--` (after it, they are operands). */
export function asksForHelp(args: readonly string[]): boolean {
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  return options.includes('--help') || options.includes('-h');
}
