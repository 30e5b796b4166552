import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { asksForHelp, failWithUsage, UsageError } from '../../subgraphs/platform/process/command-tool.ts';
import type { CommandOutput, CommandTool, PreparedCommand } from '../../subgraphs/platform/process/command-tool.ts';
import { listRejects } from './rejects.ts';
import { DEFAULT_RECORD_SOURCE } from './records/load-records.ts';
import { runImport, runRecordsLoad } from './run.ts';
import { IMPORTERS } from './sources/index.ts';
import { RECORD_TYPE_NAMES, publishDailyBriefing } from '../../subgraphs/data-loading.ts';
import { isoDate } from '../../subgraphs/platform/dates.ts';

/**
 * npm run --silent import -- <source> <file...> [--database live|sandbox] [--accession <number>] [--ticker <symbol>]
 * npm run --silent import -- rejects <source> [--database live|sandbox]
 * npm run --silent import -- records <type> <file...> [--columns …] [--format csv|jsonl] [--source <name>] …
 * npm run --silent import -- briefing [--day YYYY-MM-DD] [--database live|sandbox]
 *
 * Progress goes to stderr; stdout gets one JSON line (the counts, or the rejects as JSON lines). scripts/import.ts
 * runs it through scripts/commands/run.ts, which hands it to the server when PGlite's server is running.
 */
export const IMPORT_USAGE = `usage: import <source> <file...> [--database live|sandbox] [--accession <number>] [--ticker <symbol>]
       import rejects <source> [--database live|sandbox]
       import records <type> <file...> [--database live|sandbox] [--columns field=Heading[*factor],...]
              [--format csv|jsonl] [--source <name>] [--dry-run] [--delete-missing] [--rejects <file>]
       import briefing [--day YYYY-MM-DD] [--database live|sandbox]   (default day: the newest of the data)
record types: ${RECORD_TYPE_NAMES.join(', ')} (docs/data-sources.md "Records")
sources:
${[...IMPORTERS.values()].map((importer) => `  ${importer.source.padEnd(16)} ${importer.describe}`).join('\n')}`;

function prepare(argv: string[], output: CommandOutput): PreparedCommand | number {
  // Not parseCommandLine: a server handed this command must print, not exit.
  if (asksForHelp(argv)) {
    output.out(`${IMPORT_USAGE}\n`);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      database: { type: 'string', default: 'live' },
      accession: { type: 'string' },
      ticker: { type: 'string' },
      columns: { type: 'string' },
      format: { type: 'string' },
      source: { type: 'string' },
      rejects: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'delete-missing': { type: 'boolean' },
      day: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  if (!command) throw new UsageError('a source is required');
  const mode = values.database;
  if (mode !== 'live' && mode !== 'sandbox') {
    output.err(`--database must be live or sandbox, not "${mode}"\n`);
    return 2;
  }
  if (values.format !== undefined && values.format !== 'csv' && values.format !== 'jsonl')
    throw new UsageError(`--format must be csv or jsonl, not "${values.format}"`);
  if (command === 'records') return prepareRecords(rest, mode, values);
  if (command === 'briefing') return prepareBriefing(rest, mode, values.day);
  if (values.day !== undefined) throw new UsageError('--day is an option of `import briefing` only');
  const recordsOnly = RECORDS_OPTIONS.filter((option) => values[option] !== undefined);
  if (recordsOnly.length) throw new UsageError(`--${recordsOnly[0]} is an option of \`import records\` only`);
  if (command !== 'rejects' && !IMPORTERS.has(command)) {
    output.err(`unknown source "${command}"\n${IMPORT_USAGE}\n`);
    return 2;
  }
  // Absolute paths, so a server handed this command reads the files this command was given.
  const operands = command === 'rejects' ? rest : rest.map((file) => resolve(file));
  const options = [
    '--database',
    mode,
    ...(values.accession === undefined ? [] : ['--accession', values.accession]),
    ...(values.ticker === undefined ? [] : ['--ticker', values.ticker]),
  ];
  return {
    mode,
    argv: [command, ...operands, ...options],
    async run(db, out) {
      if (command === 'rejects') {
        const source = operands[0];
        if (!source) throw new Error('rejects: name the source, e.g. `import -- rejects house-trades`');
        for (const entry of await listRejects(db.sql, source)) out.out(`${JSON.stringify(entry)}\n`);
        return 0;
      }
      const started = Date.now();
      const result = await runImport(db, command, operands, {
        accession: values.accession,
        ticker: values.ticker,
        progress: (message) => out.err(`${message}\n`),
      });
      out.err(`${command}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      out.out(`${JSON.stringify(result)}\n`);
      return 0;
    },
  };
}

/** `briefing [--day YYYY-MM-DD]`: publishes a day's briefing from its rows (subgraphs/markets/daily-briefing.ts). */
function prepareBriefing(operands: string[], mode: 'live' | 'sandbox', day: string | undefined): PreparedCommand {
  if (operands.length) throw new UsageError(`briefing takes no files, only --day YYYY-MM-DD`);
  if (day !== undefined && !isoDate.safeParse(day).success)
    throw new UsageError(`--day must be YYYY-MM-DD, not "${day}"`);
  return {
    mode,
    argv: ['briefing', ...(day === undefined ? [] : ['--day', day]), '--database', mode],
    async run(db, out) {
      out.out(`${JSON.stringify(await publishDailyBriefing(db, { day }))}\n`);
      return 0;
    },
  };
}

const RECORDS_OPTIONS = ['columns', 'format', 'source', 'rejects', 'dry-run', 'delete-missing'] as const;

/** `records <type> <file...>`: the loader of a customer's own records (records/load-records.ts). */
function prepareRecords(
  operands: string[],
  mode: 'live' | 'sandbox',
  given: {
    columns?: string;
    format?: string;
    source?: string;
    rejects?: string;
    'dry-run'?: boolean;
    'delete-missing'?: boolean;
  },
): PreparedCommand {
  const values = {
    ...given,
    source: given.source ?? DEFAULT_RECORD_SOURCE,
    'dry-run': given['dry-run'] ?? false,
    'delete-missing': given['delete-missing'] ?? false,
  };
  const [type, ...files] = operands;
  if (!type || !RECORD_TYPE_NAMES.includes(type))
    throw new UsageError(
      `records: name a record type (${RECORD_TYPE_NAMES.join(', ')})${type ? `, not "${type}"` : ''}`,
    );
  if (files.length === 0) throw new UsageError(`records ${type}: no files given`);
  const absolute = files.map((file) => resolve(file));
  const rejects = values.rejects === undefined ? undefined : resolve(values.rejects);
  const options = [
    '--database',
    mode,
    '--source',
    values.source,
    ...(values.columns === undefined ? [] : ['--columns', values.columns]),
    ...(values.format === undefined ? [] : ['--format', values.format]),
    ...(rejects === undefined ? [] : ['--rejects', rejects]),
    ...(values['dry-run'] ? ['--dry-run'] : []),
    ...(values['delete-missing'] ? ['--delete-missing'] : []),
  ];
  return {
    mode,
    argv: ['records', type, ...absolute, ...options],
    async run(db, out) {
      const started = Date.now();
      const result = await runRecordsLoad(db, type, absolute, {
        source: values.source,
        columns: values.columns,
        format: values.format,
        rejects,
        dryRun: values['dry-run'],
        deleteMissing: values['delete-missing'],
        terminal: out.terminal,
        progress: (message) => out.err(`${message}\n`),
      });
      out.err(`records ${type}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      out.out(`${JSON.stringify(result)}\n`);
      return 0;
    },
  };
}

export const importTool: CommandTool = { name: 'import', prepare, fail: failWithUsage('import', IMPORT_USAGE) };
