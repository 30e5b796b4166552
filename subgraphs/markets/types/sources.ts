import { builder } from '../builder.ts';
import { sourceStatuses } from '../sources/source-status.ts';
import type { SourceStatus } from '../sources/source-status.ts';

const Source = builder.objectRef<SourceStatus>('DataSource').implement({
  description:
    'How current one public source is in this database (docs/data-sources.md "Live ingestion"). Runs are ' +
    'those of the ingestion schedule and of `npm run ingest`; a file loaded by `npm run import` is not a run.',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'The source name, as `npm run ingest -- run <source>` takes it.' }),
    cadence: t.exposeString('cadence', { description: 'How often the schedule runs it, in words.' }),
    lastAttempt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the last run started; null when it never ran.',
      resolve: (s) => s.last_attempt,
    }),
    lastStatus: t.exposeString('last_status', {
      nullable: true,
      description: 'The last run: running, succeeded, unchanged (every file answered 304) or failed.',
    }),
    lastError: t.exposeString('last_error', {
      nullable: true,
      description: 'Why the last run failed (or which listed documents it could not fetch).',
    }),
    lastSuccess: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The end of the last run that succeeded or found nothing changed.',
      resolve: (s) => s.last_success,
    }),
    newestRecord: t.exposeString('newest_record', {
      nullable: true,
      description: 'The newest record date (YYYY-MM-DD) when the last run ended; null for sources without dates.',
    }),
    records: t.exposeInt('records', { nullable: true, description: "The source's records when the last run ended." }),
    nextRun: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the schedule runs it next; null while the schedule has never run it (INGEST_SCHEDULE off).',
      resolve: (s) => s.next_run,
    }),
    stale: t.exposeBoolean('stale', {
      description:
        'True when two scheduled runs have passed since the last success (twice its cadence), or it never succeeded.',
    }),
  }),
});

builder.queryFields((t) => ({
  sources: t.field({
    type: [Source],
    description: 'Every public source the service ingests, with how current it is. Public, like publicStats.',
    resolve: (_root, _args, context) => sourceStatuses(context.db.sql),
  }),
}));
