import { runCommandLine } from './commands/run.ts';

/**
 * npm run --silent import -- <source> <file...> [--database live|sandbox] [--accession <number>]
 * npm run --silent import -- rejects <source> [--database live|sandbox]
 * The command itself is gateway/import/tool.ts; with PGlite and a running server the server runs it.
 */
runCommandLine('import', process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
