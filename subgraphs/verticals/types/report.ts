import { z } from 'zod';
import type { ReportJob as ReportJobRow } from '../../../prisma/generated/client/client.ts';
import { accountOf } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { ApiError, BadRequestError } from '../../platform/errors.ts';
import { definePageObject } from '../../platform/page-object.ts';
import { camelCase, snakeCase } from '../../platform/names.ts';
import { defineSort, pageArgument, pageSizeArgument } from '../../platform/paging.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { PageInfo, builder } from '../builder.ts';
import { RECORD_TYPE_NAMES, primaryRecordType, recordTypeNamed } from '../record-type/catalog.ts';
import { recordPage } from '../record-type/page.ts';
import { reportIds } from '../reports/ids.ts';
import { notifyJobQueued } from '../reports/queue.ts';
import { VERTICAL_NAMES, VerticalEnum } from '../verticals.ts';
import { countTotal } from '../../platform/totals.ts';

export { reportIds };

export const REPORT_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export const ReportStatus = builder.enumType('ReportStatus', {
  description: 'Where a report job is: queued → processing → completed | failed.',
  values: {
    queued: { description: 'Waiting for a worker.' },
    processing: { description: 'A worker is writing the file; `progress` grows.' },
    completed: { description: 'The file is written; `downloadUrl` serves it.' },
    failed: { description: 'The report could not be generated; `error` says so.' },
  } satisfies Record<(typeof REPORT_STATUSES)[number], object>,
});
export const REPORT_FORMATS = ['csv', 'json'] as const;
export const ReportFormat = builder.enumType('ReportFormat', {
  description: 'The file format of a report.',
  values: {
    csv: { description: 'Comma-separated values with a header row of the REST field names.' },
    json: { description: 'A JSON array of records shaped like the REST records.' },
  } satisfies Record<(typeof REPORT_FORMATS)[number], object>,
});
export const ReportRecordType = builder.enumType('ReportRecordType', {
  description: 'The record type a report exports, named like its list field.',
  values: Object.fromEntries(
    RECORD_TYPE_NAMES.map((name) => [
      name,
      { description: `The ${recordTypeNamed(name)!.vertical} vertical’s ${name}.` },
    ]),
  ),
});

/**
 * One of the caller's report jobs, or null — someone else's is as unknown as a missing one. The GraphQL
 * `report(id)` field and the download route both ask this, so they cannot disagree on who may read a file.
 */
export async function findOwnedReport(context: RequestContext, id: string): Promise<ReportJobRow | null> {
  return context.db.prisma.reportJob.findFirst({ where: { id: reportIds.parse(id), accountId: accountOf(context) } });
}

export const ReportJob = builder.prismaObject('ReportJob', {
  description: 'A queued report: queued → processing → completed | failed, with progress and row count.',
  fields: (t) => ({
    id: t.string({ description: 'The report’s API id, `rpt_<n>`.', resolve: (job) => reportIds.format(job.id) }),
    status: t.field({
      type: ReportStatus,
      description: 'Where the job is.',
      resolve: (job) => job.status as (typeof REPORT_STATUSES)[number],
    }),
    vertical: t.field({
      type: VerticalEnum,
      description: 'The vertical of the exported records.',
      resolve: (job) => job.vertical as (typeof VERTICAL_NAMES)[number],
    }),
    recordType: t.field({
      type: ReportRecordType,
      description: 'The record type exported.',
      resolve: (job) => job.recordType,
    }),
    format: t.field({
      type: ReportFormat,
      description: 'The file format.',
      resolve: (job) => job.format as (typeof REPORT_FORMATS)[number],
    }),
    fields: t.exposeStringList('fields', { description: 'The record fields exported (REST names); empty for all.' }),
    filters: t.field({
      type: 'JSON',
      description: 'The filters as given (REST parameter names).',
      resolve: (job) =>
        Object.fromEntries(
          Object.entries(job.filters as Record<string, unknown>).map(([name, value]) => [snakeCase(name), value]),
        ),
    }),
    progress: t.exposeInt('progress', { description: 'Percent of the rows written.' }),
    rowCount: t.exposeInt('rowCount', { description: 'Rows written so far; all of them once completed.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why the job failed; null unless it did.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the job was queued.' }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a worker started it; null while queued.',
    }),
    completedAt: t.expose('completedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it completed or failed; null before.',
    }),
    downloadUrl: t.string({
      nullable: true,
      description: 'Where the finished file streams from (null until completed).',
      resolve: (job) => (job.status === 'completed' ? `/api/v1/reports/${reportIds.format(job.id)}/download` : null),
    }),
  }),
});

const generateInput = defineArguments({
  vertical: argument(VerticalEnum, z.enum(VERTICAL_NAMES), {
    required: true,
    description: 'The vertical whose records to export.',
  }),
  recordType: argument(ReportRecordType, z.enum(RECORD_TYPE_NAMES as [string, ...string[]]), {
    description: 'Defaults to the vertical’s main records: companies, properties or attorneys.',
  }),
  filters: argument('JSON', z.record(z.string(), z.unknown(), { message: 'must be a JSON object' }), {
    description: 'The list route’s filters, by their REST names.',
  }),
  format: argument(ReportFormat, z.enum(REPORT_FORMATS), { defaultValue: 'csv', description: 'The file format.' }),
  fields: argument(['String'], z.array(z.string()).max(50, 'must name at most 50 fields'), {
    description: 'Record fields to include (REST names); all by default.',
  }),
});

const GenerateReportInput = builder.inputType('GenerateReportInput', {
  description: 'What a report exports: a vertical’s record type, its filters, the fields and the format.',
  fields: (t) => generateInput.graphql(t),
});

/**
 * Checks a report request the way the list route checks its query: the same filter names (snake_case, as in
 * the query string) and the same validation, by the list's own `where` function.
 */
export function validateReportRequest(input: Record<string, unknown>) {
  const request = generateInput.parse(input);
  const type = request.recordType ? recordTypeNamed(request.recordType)! : primaryRecordType(request.vertical);
  const recordType = type.name;
  if (type.vertical !== request.vertical) {
    throw new BadRequestError({ recordType: `${recordType} are not records of the ${request.vertical} vertical` });
  }
  const details: Record<string, string> = {};
  const filters: Record<string, unknown> = {};
  // Read as given: zod's record drops a `__proto__` member, which a GraphQL object literal can hold.
  for (const [name, value] of Object.entries((input.filters ?? {}) as Record<string, unknown>)) {
    const argument = camelCase(name);
    if (!type.filterNames.includes(argument)) details[`filters.${name}`] = `is not a filter of ${recordType}`;
    else if (value !== null) filters[argument] = value;
  }
  // Own fields only: `constructor` or `toString` must not find Object.prototype's.
  const unknownFields = (request.fields ?? []).filter((field) => !Object.hasOwn(type.restFields, field));
  if (unknownFields.length)
    details.fields = `unknown fields ${unknownFields.join(', ')}; ${recordType} have ${Object.keys(type.restFields).join(', ')}`;
  if (Object.keys(details).length) throw new BadRequestError(details);
  try {
    type.where(filters);
  } catch (error) {
    if (!(error instanceof ApiError) || !error.details) throw error;
    throw new BadRequestError(
      Object.fromEntries(
        Object.entries(error.details).map(([name, problem]) => [`filters.${snakeCase(name)}`, problem]),
      ),
    );
  }
  return { vertical: request.vertical, recordType, filters, format: request.format, fields: request.fields ?? [] };
}

const ReportSort = defineSort(
  builder,
  'ReportSort',
  { created_at: 'createdAt', id: 'id' },
  { field: 'createdAt', direction: 'desc' },
);

const ReportPage = definePageObject(builder, PageInfo, 'ReportPage', ReportJob, 'ReportJob');

builder.queryFields((t) => ({
  report: t.prismaField({
    type: ReportJob,
    nullable: true,
    description: 'One of the caller’s report jobs by its id; null when the caller has no such job.',
    args: { id: t.arg.string({ required: true, description: 'The report’s API id, `rpt_<n>`.' }) },
    resolve: (_query, _root, args, context) => findOwnedReport(context, args.id),
  }),
  reports: t.field({
    type: ReportPage,
    description: 'The caller’s report jobs, newest first.',
    args: {
      status: t.arg({ type: ReportStatus, required: false, description: 'Jobs in this status.' }),
      sort: t.arg({ type: ReportSort.ref, required: false, description: 'The order of the list.' }),
      page: pageArgument(t.arg),
      perPage: pageSizeArgument(t.arg),
    },
    resolve: (_root, args, context) =>
      recordPage(
        { accountId: accountOf(context), status: args.status ?? undefined },
        ReportSort.toOrder(args.sort),
        args,
        (where) => countTotal(context.db, 'ReportJob', where),
      ),
  }),
}));

builder.mutationFields((t) => ({
  generateReport: t.prismaField({
    type: ReportJob,
    description: 'Queues a report of one record type’s filtered records; a worker writes the file.',
    args: {
      input: t.arg({ type: GenerateReportInput, required: true, description: 'The records and file to produce.' }),
    },
    resolve: async (query, _root, { input }, context) => {
      const accountId = accountOf(context);
      const request = validateReportRequest(input);
      const job = await context.db.prisma.reportJob.create({
        ...query,
        data: { accountId, ...request, filters: request.filters as object },
      });
      notifyJobQueued();
      return job;
    },
  }),
}));
