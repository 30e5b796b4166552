import { join } from 'node:path';
import { execute, getNamedType, parse } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { Database } from '../../platform/database.ts';
import { selectionOf } from '../../platform/names.ts';
import { recordTypeNamed } from '../record-type/catalog.ts';
import type { RecordType } from '../record-type/define.ts';
import { markBulkRead } from '../record-type/page.ts';
import { verticalsSchema } from '../schema.ts';
import { reportIds } from '../types/report.ts';
import type { ClaimedJob } from './queue.ts';
import { openReportFile } from './writer.ts';

/** Rows per read: keyset pages through the record type's cursor connection (`WHERE id > cursor`), never OFFSET. */
export const DEFAULT_BATCH_SIZE = 2000;

export interface ExportOptions {
  reportsDir: string;
  batchSize?: number;
  /** Called after every batch; returning false stops the export (the job is no longer ours, or we are stopping). */
  onBatch: (rows: number, total: number) => Promise<boolean>;
}

/** Where a job's file lives, relative to the reports directory: one folder per database. */
export function reportFileName(db: Database, job: Pick<ClaimedJob, 'id' | 'format'>): string {
  return join(db.mode, `${reportIds.format(job.id)}.${job.format}`);
}

/** The fields a job exports (all of the record type's, unless it named some), in the record's own order. */
export function exportedFields(type: RecordType, fields: readonly string[]): Record<string, string> {
  const wanted = new Set(fields);
  return Object.fromEntries(Object.entries(type.restFields).filter(([name]) => wanted.size === 0 || wanted.has(name)));
}

const documents = new Map<string, DocumentNode>();

/**
 * The batch query of a record type: its connection with every filter argument, selecting the REST record
 * shape, so a report row is exactly the record the list route returns.
 */
function batchDocument(type: RecordType, fields: Record<string, string>): DocumentNode {
  const key = `${type.name}:${Object.keys(fields).join(',')}`;
  let document = documents.get(key);
  if (!document) {
    const field = verticalsSchema.getQueryType()?.getFields()[type.connection];
    if (!field) throw new Error(`the verticals subgraph has no ${type.connection}`);
    const filters = field.args.filter((arg) => type.filterNames.includes(arg.name));
    const declarations = filters.map((arg) => `, $${arg.name}: ${getNamedType(arg.type).name}`).join('');
    const passed = filters.map((arg) => `, ${arg.name}: $${arg.name}`).join('');
    document = parse(`query ReportBatch($first: Int!, $after: String${declarations}) {
      records: ${type.connection}(first: $first, after: $after${passed}) {
        pageInfo { hasNextPage endCursor }
        edges { node { ${selectionOf(fields)} } }
      }
    }`);
    documents.set(key, document);
  }
  return document;
}

interface BatchResult {
  records: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: Record<string, unknown> }[] };
}

/**
 * Streams the job's records into its file, batch by batch; memory holds one batch at a time. Returns the row
 * count, or undefined when `onBatch` stopped it (the partial file is removed).
 */
export async function exportReport(
  db: Database,
  job: ClaimedJob,
  options: ExportOptions,
): Promise<{ rows: number; file: string } | undefined> {
  const type = recordTypeNamed(job.recordType);
  if (!type) throw new Error(`unknown record type ${job.recordType}`);
  const fields = exportedFields(type, job.fields);
  const document = batchDocument(type, fields);
  const total = await type.count(db, type.where(job.filters));
  const file = reportFileName(db, job);
  const writer = await openReportFile(join(options.reportsDir, file), job.format, Object.keys(fields));
  let rows = 0;
  let after: string | null = null;
  try {
    for (;;) {
      const context = markBulkRead({ viewer: null, db, loaders: new Map() });
      const result = await execute({
        schema: verticalsSchema,
        document,
        contextValue: context,
        variableValues: { ...job.filters, first: options.batchSize ?? DEFAULT_BATCH_SIZE, after },
      });
      if (result.errors?.length) throw result.errors[0];
      const { records } = result.data as unknown as BatchResult;
      for (const edge of records.edges) await writer.write(edge.node);
      rows += records.edges.length;
      if (!(await options.onBatch(rows, total))) {
        await writer.abort();
        return undefined;
      }
      if (!records.pageInfo.hasNextPage || !records.pageInfo.endCursor) break;
      after = records.pageInfo.endCursor;
    }
    await writer.finish();
    return { rows, file };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
