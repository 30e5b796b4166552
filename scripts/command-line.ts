import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { asksForHelp } from '../subgraphs/platform/process/command-tool.ts';

/**
 * `parseArgs` for our commands, before they open anything: `--help` (or `-h`) prints the usage to stdout and
 * exits 0; an unknown option, a missing value or a stray argument prints the problem and the usage to stderr and
 * exits 2, the usual status of a usage error.
 */
export function parseCommandLine<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  if (asksForHelp(args)) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs<T>({ ...config, args });
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) throw error;
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}
