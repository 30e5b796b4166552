import { runCommandLine } from './commands/run.ts';

/**
 * Server-side account administration on the control database (the live one: DATABASE_URL or DATA_DIR).
 *   npm run --silent admin -- create-account --email a@b.c --password secret --plan professional [--json]
 *   npm run --silent admin -- create-key --plan analyst --mode sandbox [--email a@b.c] [--name ci] [--json]
 *   npm run --silent admin -- set-plan --email a@b.c --plan institutional [--json]
 * The commands are gateway/commands/admin-tool.ts; with PGlite and a running server the server runs them.
 */
runCommandLine('admin', process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
