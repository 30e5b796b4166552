import { runCommandLine } from './commands/run.ts';

/**
 * npm run --silent ingest -- run <source>|all [--database live|sandbox]
 * npm run --silent ingest -- status [--database live|sandbox]
 * The command itself is gateway/ingest/tool.ts; with PGlite and a running server the server runs it.
 */
runCommandLine('ingest', process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`ingest failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
