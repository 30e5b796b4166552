import { parseArgs } from 'node:util';
import { asksForHelp, failWithUsage, UsageError } from '../../subgraphs/platform/process/command-tool.ts';
import type { CommandOutput, CommandTool, PreparedCommand } from '../../subgraphs/platform/process/command-tool.ts';
import { nextScheduledRun, SOURCE_SCHEDULES, sourceStatuses } from '../../subgraphs/data-loading.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { claimJob, jobHolder } from './job-lease.ts';
import { ingestClient, INGEST_WORK_DIR } from './ingest-client.ts';
import { runSource } from './run-source.ts';

export const INGEST_USAGE = `usage: ingest run <source>|all [--database live|sandbox]
       ingest status [--database live|sandbox]
sources: ${SOURCE_SCHEDULES.map((source) => source.name).join(', ')} (docs/data-sources.md "Live ingestion")`;

/**
 * npm run --silent ingest -- run <source>|all [--database live|sandbox]: fetches the source(s) now, through the
 * same importers as `npm run import`, one JSON line per run on stdout (exit 1 when one failed; 2 when the
 * schedule is running it elsewhere). `ingest -- status`: one JSON line per source (as /api/stats/sources).
 * Runs in a running PGlite server when there is one (scripts/commands/run.ts), like `import`.
 */
function prepare(argv: string[], output: CommandOutput): PreparedCommand | number {
  if (asksForHelp(argv)) {
    output.out(`${INGEST_USAGE}\n`);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { database: { type: 'string', default: 'live' } },
  });
  const [command, source, ...extra] = positionals;
  const mode = values.database;
  if (mode !== 'live' && mode !== 'sandbox') throw new UsageError(`--database must be live or sandbox, not "${mode}"`);
  if (command === 'status') {
    if (source !== undefined) throw new UsageError('status takes no source');
    return {
      mode,
      argv: ['status', '--database', mode],
      async run(db, out) {
        for (const status of await sourceStatuses(db.sql)) out.out(`${JSON.stringify(status)}\n`);
        return 0;
      },
    };
  }
  if (command !== 'run') throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
  if (!source) throw new UsageError('run: name a source, or all');
  if (extra.length) throw new UsageError(`run takes one source, not "${extra.join(' ')}"`);
  const names = source === 'all' ? SOURCE_SCHEDULES.map((schedule) => schedule.name) : [source];
  if (!SOURCE_SCHEDULES.some((schedule) => schedule.name === source) && source !== 'all')
    throw new UsageError(`unknown source "${source}"`);
  return {
    mode,
    argv: ['run', source, '--database', mode],
    async run(db, out) {
      let exit = 0;
      for (const name of names) {
        const lease = await claimJob(db.sql, name, { dueOnly: false });
        if (!lease) {
          const holder = await jobHolder(db.sql, name);
          out.err(
            `ingest: ${name} is being run by ${holder?.holder ?? 'another process'} (lease until ${holder?.until.toISOString() ?? 'now'}); not run\n`,
          );
          exit = Math.max(exit, 2);
          continue;
        }
        try {
          const outcome = await runSource(db, name, {
            client: ingestClient(),
            workDir: INGEST_WORK_DIR,
            trigger: 'command',
            form4PerRun: env.INGEST_FORM4_PER_RUN,
            progress: (message) => out.err(`${message}\n`),
          });
          out.out(`${JSON.stringify(outcome)}\n`);
          if (outcome.status === 'failed') exit = Math.max(exit, 1);
        } finally {
          await lease.release(nextScheduledRun(SOURCE_SCHEDULES.find((s) => s.name === name)!.cron, new Date()));
        }
      }
      return exit;
    },
  };
}

export const ingestTool: CommandTool = { name: 'ingest', prepare, fail: failWithUsage('ingest', INGEST_USAGE) };
